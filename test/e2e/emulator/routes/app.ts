/** The app and its installation: JWT-authenticated endpoints and the token exchange. */
import { notFound, type Router } from "../router.js";
import { intParam, type RouteContext } from "./context.js";

export function registerAppRoutes(router: Router, ctx: RouteContext): void {
  const { state, shapes, auth } = ctx;

  router.add("GET", "/app", "jwt", () => ({ status: 200, body: shapes.app(state.app) }));

  router.add("GET", "/app/installations", "jwt", () => ({
    status: 200,
    body: [shapes.installation(state.installation, state.app)],
  }));

  router.add("GET", "/app/installations/{installation_id}", "jwt", (req) => {
    if (intParam(req.params.installation_id) !== state.installation.id) throw notFound();
    return { status: 200, body: shapes.installation(state.installation, state.app) };
  });

  router.add("POST", "/app/installations/{installation_id}/access_tokens", "jwt", (req) => {
    const id = intParam(req.params.installation_id);
    if (id !== state.installation.id) throw notFound();
    const token = auth.issueToken(id);
    return {
      status: 201,
      body: {
        token: token.token,
        expires_at: token.expiresAt.toISOString().replace(/\.\d{3}Z$/, "Z"),
        permissions: { ...state.app.permissions },
        repository_selection: "all",
      },
    };
  });

  // The user a person's token acts as (a user token only: an installation token gets 403 on GitHub,
  // which resolve-bot never sends; here it is simply not a user's credential).
  router.add("GET", "/user", "user", (req) => {
    const user = state.users.get(req.userLogin!.toLowerCase())!;
    return { status: 200, body: shapes.publicUser(user) };
  });

  router.add("GET", "/repos/{owner}/{repo}/installation", "jwt", (req) => {
    ctx.repo(req);
    return { status: 200, body: shapes.installation(state.installation, state.app) };
  });
}
