/**
 * Measures webhook acknowledgement latency while heavy work runs: a node:http stand-in for the
 * webhook endpoint (verifies an HMAC of the body, answers 202) in this process, deliveries from a
 * separate process (fixtures/ack-client.mjs).
 */
import { execFile } from "node:child_process";
import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

export interface AckFigures {
  count: number;
  p50: number;
  p99: number;
  max: number;
  /** The heavy work was still running when the last delivery was answered. */
  heavyOutlastedDeliveries: boolean;
}

/**
 * `release` ends the heavy work once the deliveries are done (a task that works until told), so
 * that the two overlap however slowly a loaded machine sends them.
 */
export async function measureAcks(heavy: () => Promise<unknown>, count = 100, intervalMs = 40, release?: () => void): Promise<AckFigures> {
  const server = http.createServer((request, response) => {
    const hmac = createHmac("sha256", "webhook secret");
    request.on("data", (chunk: Buffer) => hmac.update(chunk));
    request.on("end", () => {
      hmac.digest("hex");
      response.writeHead(202).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const client = fileURLToPath(new URL("./fixtures/ack-client.mjs", import.meta.url));
    let heavyDone = false;
    const work = heavy().then(() => (heavyDone = true));
    const { stdout } = await promisify(execFile)(process.execPath, [client, String(port), String(count), String(intervalMs)]);
    const heavyOutlastedDeliveries = !heavyDone;
    release?.();
    await work;
    const sorted = (JSON.parse(stdout) as number[]).sort((a, b) => a - b);
    const at = (q: number): number => Math.round(sorted[Math.ceil(q * sorted.length) - 1]! * 10) / 10;
    return { count: sorted.length, p50: at(0.5), p99: at(0.99), max: at(1), heavyOutlastedDeliveries };
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}
