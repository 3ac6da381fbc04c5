/**
 * The program of the keychain helper process (see `createOsKeyring`), run with `node -e` and the
 * path of `@napi-rs/keyring` as its argument. It answers `{ id, op, service, account, secret }`
 * messages on its IPC channel with `{ id, ok, value | error }`, and exits when its parent goes.
 * Errors carry the binding's one-line message only (it never contains the secret); a binding
 * that cannot load answers every call with `load: …`.
 *
 * On Linux every entry is pinned to the Secret Service: the kernel keyring the binding would
 * otherwise fall back to silently is lost at reboot. @internal
 */
export const KEYRING_HELPER_SOURCE = `
'use strict';
let keyring;
let loadError;
try {
  keyring = require(process.argv[1]);
} catch (error) {
  loadError = 'load: the keychain binding could not be loaded (' +
    String((error && error.code) || 'no prebuilt binary for this platform') + ')';
}
const options = { linux: { store: 'secret-service' } };
function reply(message) {
  if (process.connected) process.send(message);
}
process.on('message', async (m) => {
  if (loadError) return reply({ id: m.id, ok: false, error: loadError });
  try {
    const entry = new keyring.AsyncEntry(m.service, m.account, options);
    let value;
    if (m.op === 'get') value = await entry.getPassword();
    else if (m.op === 'set') value = await entry.setPassword(m.secret);
    else if (m.op === 'delete') value = await entry.deleteCredential();
    else throw new Error('unknown operation');
    reply({ id: m.id, ok: true, value: value === null ? undefined : value });
  } catch (error) {
    const text = String((error && error.message) || error).split('\\n')[0].slice(0, 300);
    reply({ id: m.id, ok: false, error: text });
  }
});
process.on('disconnect', () => process.exit(0));
`;
