/**
 * The app's webhook deliveries (App JWT): the list, newest first, `per_page` ≤ 100 (default 30),
 * paged by an opaque `cursor` that the `Link` header's `next` carries, as GitHub does; one
 * delivery with its request (headers, payload) and response. Only the last 3 days are kept.
 */
import type { DeliveryLog } from "../deliveries.js";
import { HttpError, notFound, type Router } from "../router.js";
import type { HookDelivery } from "../state.js";
import { intParam, type RouteContext } from "./context.js";

function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

function item(d: HookDelivery): Record<string, unknown> {
  return {
    id: d.id,
    guid: d.guid,
    delivered_at: iso(d.deliveredAt),
    redelivery: d.redelivery,
    duration: d.duration,
    status: d.status,
    status_code: d.statusCode,
    event: d.event,
    action: d.action,
    installation_id: d.installationId,
    repository_id: d.repositoryId,
    throttled_at: null,
  };
}

export function registerDeliveryRoutes(router: Router, ctx: RouteContext, deliveries: DeliveryLog): void {
  router.add("GET", "/app/hook/deliveries", "jwt", (req) => {
    const perPage = Math.min(100, Math.max(1, Number(req.query.per_page ?? 30) || 30));
    let listed = deliveries.listed();
    const status = req.query.status;
    if (status !== undefined && status !== "success" && status !== "failure") throw new HttpError(400, "Invalid status");
    // GitHub's classification: success is 200–399, failure 400–599 (no answer at all is neither).
    if (status === "success") listed = listed.filter((d) => d.statusCode >= 200 && d.statusCode < 400);
    if (status === "failure") listed = listed.filter((d) => d.statusCode >= 400 && d.statusCode < 600);
    let start = 0;
    if (req.query.cursor !== undefined) {
      const match = /^v1_(\d+)$/.exec(req.query.cursor);
      if (!match) throw new HttpError(400, "Invalid cursor");
      // The cursor names the first delivery of the page; one that is gone starts at the next older one.
      const from = Number(match[1]);
      start = listed.findIndex((d) => d.id <= from);
      if (start < 0) start = listed.length;
    }
    const page = listed.slice(start, start + perPage);
    const next = listed[start + perPage];
    const headers: Record<string, string> = {};
    if (next) {
      const query = new URLSearchParams({ ...req.query, per_page: String(perPage), cursor: `v1_${next.id}` });
      headers.link = `<${ctx.shapes.api}/app/hook/deliveries?${query}>; rel="next"`;
    }
    return { status: 200, body: page.map(item), headers };
  });

  router.add("GET", "/app/hook/deliveries/{delivery_id}", "jwt", (req) => {
    const id = intParam(req.params.delivery_id);
    const delivery = deliveries.listed().find((d) => d.id === id);
    if (!delivery) throw notFound();
    return {
      status: 200,
      body: {
        ...item(delivery),
        url: delivery.url,
        request: { headers: delivery.requestHeaders, payload: delivery.payload },
        response: { headers: delivery.responseHeaders, payload: delivery.responseBody },
      },
    };
  });
}
