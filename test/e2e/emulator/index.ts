/** GitHub emulator for resolve-bot's end-to-end tests and local demos. */
export { GitHubEmulator, type CommitSpec, type EmulatorOptions, type PullRequestSpec, type Violation } from "./emulator.js";
export { OpenApiValidator } from "./openapi.js";
export { deliverWebhook, signWebhook, webhookExample, WebhookFactory, type DeliveryResult, type WebhookEvent } from "./webhooks.js";
export { SECONDARY_RATE_LIMIT_MESSAGE, type Fault, type FaultSpec, type Hook, type HookRequest, type LogEntry } from "./traffic.js";
export type { FileMap, CommitInfo, TreeEntry, GitIdentity } from "./git-store.js";
export type { Role, CheckRun, HookDelivery } from "./state.js";
export { DELIVERY_RETENTION_MS, type DeliveryFault, type DeliveryFaultSpec, type RecordedDeliverySpec } from "./deliveries.js";
export { CHECK_LIMITS } from "./routes/checks.js";
export { runnerEnvironment, type RunnerJob } from "./runner.js";
