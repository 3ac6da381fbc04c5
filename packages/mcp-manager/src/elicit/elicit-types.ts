// The shapes of an elicitation as the host's prompter sees it: a form to fill in, or a page to
// open. Everything in them came from a server and has been cleaned (one-line labels, a message
// with its lines kept, tags neutralised); an option's `value` and a field's `name` are the cleaned
// forms the prompter answers with, which the manager maps back to the server's own.

/** What one answered field holds: text, a number, a yes/no, or the chosen options. */
export type ElicitValue = string | number | boolean | readonly string[];

/** A form's answers, by field name. */
export type ElicitValues = Readonly<Record<string, ElicitValue>>;

/** One option of a single or multiple choice. */
export interface ElicitOption {
  /** What the prompter answers with (cleaned). */
  readonly value: string;
  /** What the user sees: the schema's title for it, or the value itself. */
  readonly label: string;
}

/**
 * How the server wrote a choice's options (SEP-1330), kept so that a form passed on (by the
 * gateway) reaches its host in the same shape: `untitled` is a plain `enum` (`items.enum` for a
 * multiple choice), `titled` is `oneOf` (`items.anyOf`) of `{ const, title }`, `enumNames` is the
 * deprecated `enum` with `enumNames` beside it (single choice only).
 */
export type ElicitChoiceShape = 'untitled' | 'titled' | 'enumNames';

/** What a field's bounds and kind say about the answer it takes. */
export type ElicitFieldKind =
  | {
      readonly kind: 'text';
      /** A format the answer must have. */
      readonly format?: 'email' | 'uri' | 'date' | 'date-time';
      readonly minLength?: number;
      readonly maxLength?: number;
    }
  | {
      readonly kind: 'number';
      /** True for the schema's `integer`. */
      readonly integer: boolean;
      readonly minimum?: number;
      readonly maximum?: number;
    }
  | { readonly kind: 'boolean' }
  | {
      readonly kind: 'choice';
      readonly options: readonly ElicitOption[];
      /** How the server wrote the options. */
      readonly shape: ElicitChoiceShape;
    }
  | {
      readonly kind: 'choices';
      readonly options: readonly ElicitOption[];
      /** How the server wrote the options (never `enumNames`: it is for single choices). */
      readonly shape: Exclude<ElicitChoiceShape, 'enumNames'>;
      readonly minItems?: number;
      readonly maxItems?: number;
    };

/** One field of a form, in the order the server listed it. */
export type ElicitField = ElicitFieldKind & {
  /** The key the answer goes under (cleaned). */
  readonly name: string;
  /** What the user sees: the schema's title, or the name. */
  readonly label: string;
  readonly description?: string;
  readonly required: boolean;
  /** The schema's default, when it fits the field (SEP-1034): the form starts with it. */
  readonly default?: ElicitValue;
};

/** A server asks the user to fill in a form. */
export interface ElicitFormRequest {
  readonly mode: 'form';
  /** The server that asks. */
  readonly server: string;
  /** Its message (cleaned, lines kept, capped). */
  readonly message: string;
  readonly fields: readonly ElicitField[];
  /** The defaults of the fields that have one: an answer to start from. */
  readonly defaults: ElicitValues;
  /**
   * What is wrong with an answer, one line each (empty when it fits the form): the prompter may
   * use it to let the user fix an answer before it is sent. The manager checks again anyway.
   */
  check(values: ElicitValues): readonly string[];
}

/** A server asks the user to open a page (a sign-in or a payment elsewhere, say). */
export interface ElicitUrlRequest {
  readonly mode: 'url';
  readonly server: string;
  readonly message: string;
  /** The whole address, as it must be shown (punycode host, escapes). */
  readonly url: string;
  /** Its host, to highlight. */
  readonly host: string;
  /** A label of the host is punycode (`xn--`): it may imitate another name. */
  readonly punycode: boolean;
  /** The host of a remote server's own URL; absent for a server on this computer. */
  readonly serverHost?: string;
  /** A remote server asks to open a page on another domain than its own. */
  readonly otherDomain: boolean;
}

/** What a server asks the user for. */
export type ElicitRequest = ElicitFormRequest | ElicitUrlRequest;

/**
 * The user's answer: `accept` with the form's values (the defaults when none are given) or, for
 * a page, consent to open it; `decline` (no); `cancel` (dismissed without a choice).
 */
export type ElicitReply =
  | { readonly action: 'accept'; readonly values?: ElicitValues }
  | { readonly action: 'decline' }
  | { readonly action: 'cancel' };
