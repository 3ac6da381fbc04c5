/**
 * Where the store reports what a person may want to know (a corrupt file moved aside, a folder
 * others can write to). Every method is optional; `console` fits. The store never prints by itself.
 */
export interface TrustStoreLogger {
  debug?: (message: string) => void;
  info?: (message: string) => void;
  warn?: (message: string) => void;
  error?: (message: string) => void;
}
