/**
 * Deadlines in tests are safety nets, never waits: every test waits for a condition, and a deadline
 * only says when to give up. On a loaded machine (a CPU hog on both of CI's 2 cores) everything takes
 * several times longer, so each deadline is multiplied by RESOLVE_BOT_TEST_PATIENCE (jest.config.js
 * sets its default, so jest's own test timeout grows alike).
 */
export function patient(ms: number): number {
  return ms * Number(process.env.RESOLVE_BOT_TEST_PATIENCE ?? "1");
}
