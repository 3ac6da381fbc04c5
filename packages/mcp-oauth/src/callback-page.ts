/**
 * The only pages the callback server ever sends. They are constants: nothing from the request
 * (code, state, error text, path) is ever put into a page, so a callback cannot reflect script
 * or fake text into the browser.
 * @internal
 */
export const CALLBACK_PAGES = {
  signedIn: page('Signed in', 'You are signed in. You can close this tab and go back to Garuda.'),
  denied: page(
    'Sign-in not completed',
    'The sign-in did not complete. You can close this tab; Garuda says what happened.',
  ),
  wrongState: page(
    'Unknown sign-in',
    'This page does not belong to the sign-in Garuda is waiting for. Start the sign-in from ' +
      'Garuda again.',
  ),
  notFound: page('Not found', 'There is nothing here.'),
  notAllowed: page('Not allowed', 'Only GET is served here.'),
} as const;

/**
 * Headers of every page: never cached (the address held a code), never framed, no referrer,
 * no scripts or other resources at all.
 * @internal
 */
export const CALLBACK_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  pragma: 'no-cache',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  connection: 'close',
} as const;

function page(title: string, text: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<title>${title}</title></head><body><h1>${title}</h1><p>${text}</p></body></html>\n`
  );
}
