/**
 * What every error of a Garuda package has: a stable `code` from that package's exported
 * constants, a message that says what happened and what to do, and the underlying error as
 * `cause`. Each package's base error class extends it, with its own marker and `isInstance`;
 * callers tell failures apart by `code`, never by the message.
 */
export abstract class CodedError<Code extends string> extends Error {
  /** A stable string from the package's error codes. */
  readonly code: Code;

  /**
   * @param code - one of the package's error codes
   * @param message - what happened and what to do, with untrusted text quoted
   * @param options - `cause`: the underlying error, kept as `error.cause` (left out when undefined)
   */
  constructor(code: Code, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
  }
}
