/**
 * Errors shared by every layer. A leaf module: it imports nothing, so the workspace, the tools and
 * the front ends can all throw the same error without depending on the core runtime.
 */

/**
 * An error whose message is written for the person who typed the command.
 * Anything else that is thrown is a bug or an outside failure, and front ends say so.
 */
export class UserError extends Error {
  override name = "UserError";
}
