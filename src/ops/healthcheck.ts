/**
 * The container's HEALTHCHECK (the image has no curl): GET /healthz on this process's port —
 * RESOLVE_BOT_WORKER_PORT for a worker that serves one, else PORT (default 3000) — exit 0 when it
 * answers 200 within 4 s, 1 otherwise.
 */
const port = process.env.RESOLVE_BOT_WORKER_PORT?.trim() || process.env.PORT?.trim() || "3000";
try {
  const response = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(4_000) });
  process.exitCode = response.status === 200 ? 0 : 1;
} catch {
  process.exitCode = 1;
}
