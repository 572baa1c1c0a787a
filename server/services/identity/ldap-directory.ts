import { Client, InvalidCredentialsError, NoSuchObjectError } from 'ldapts';

// Talks to a client organisation's directory with `ldapts`: finds the person's entry from the e-mail typed at sign-in
// and checks the password by binding as that entry. The directory is the judge of the password; nothing is kept.

export interface DirectorySettings {
  url: string;
  bindDnTemplate: string | null;
  searchBase: string | null;
  searchFilter: string | null;
  serviceBindDn: string | null;
  /** Opened from its sealed form by the caller; never logged. */
  servicePassword: string | null;
  tlsRejectUnauthorized: boolean;
}

export type DirectoryAnswer =
  | { outcome: 'verified'; dn: string; name: string | undefined }
  /** Wrong password, or nobody of that e-mail (told apart only in the server's log, never to the person). */
  | { outcome: 'refused'; why: 'password' | 'unknown' }
  /** Down, slow beyond the timeout, or misconfigured (the service account refused): the cause for the log. */
  | { outcome: 'unavailable'; cause: string };

/** RFC 4514: a value put into a DN cannot change the DN's structure (`,`, `+`, `=`, `\`, leading `#` or space, ...). */
export function escapeDnValue(value: string): string {
  return value
    .replace(/[\\,+"<>;=]/g, (c) => `\\${c}`)
    .replace(/^[#\s]/, (c) => `\\${c}`)
    .replace(/\s$/, (c) => `\\${c}`)
    .replace(/\0/g, '\\00');
}

/**
 * RFC 4515: a value put into a search filter matches only itself (`*`, `(`, `)`, `\`, NUL escaped). ldapts's own
 * escapeFilter is a template tag for whole filters; the filter here is the superuser's, only the value is ours.
 */
export function escapeFilterValue(value: string): string {
  return value.replace(/[*()\\\0]/g, (c) => `\\${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

function fill(template: string, email: string, escape: (value: string) => string): string {
  const username = email.split('@')[0] ?? email;
  return template.replaceAll('{email}', escape(email)).replaceAll('{username}', escape(username));
}

function firstText(value: unknown): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  if (typeof first === 'string' && first.trim() !== '') return first.trim();
  if (Buffer.isBuffer(first) && first.length > 0) return first.toString('utf8').trim();
  return undefined;
}

const NAME_ATTRIBUTES = ['displayName', 'cn'];

/**
 * Verifies `password` for `email` against the directory within `timeoutMs` (connection and each operation). An
 * empty password is refused before any bind: LDAP treats a simple bind without a password as an anonymous bind,
 * which most directories accept.
 */
export async function verifyWithDirectory(
  settings: DirectorySettings,
  email: string,
  password: string,
  timeoutMs: number,
): Promise<DirectoryAnswer> {
  if (password === '') return { outcome: 'refused', why: 'password' };
  const client = new Client({
    url: settings.url,
    timeout: timeoutMs,
    connectTimeout: timeoutMs,
    // Only for ldaps://: given for ldap://, ldapts speaks TLS on the plain port and the directory hangs up.
    ...(/^ldaps:/i.test(settings.url) ? { tlsOptions: { rejectUnauthorized: settings.tlsRejectUnauthorized } } : {}),
  });
  try {
    let dn: string;
    let name: string | undefined;
    if (settings.searchFilter && settings.searchBase) {
      if (settings.serviceBindDn) {
        try {
          await client.bind(settings.serviceBindDn, settings.servicePassword ?? '');
        } catch (err) {
          if (err instanceof InvalidCredentialsError) return { outcome: 'unavailable', cause: 'the service account was refused' };
          throw err;
        }
      }
      const filter = fill(settings.searchFilter, email, escapeFilterValue);
      let entries;
      try {
        ({ searchEntries: entries } = await client.search(settings.searchBase, { scope: 'sub', filter, sizeLimit: 2, attributes: NAME_ATTRIBUTES }));
      } catch (err) {
        if (err instanceof NoSuchObjectError) return { outcome: 'unavailable', cause: 'the search base does not exist' };
        throw err;
      }
      // Two entries for one e-mail: which one is the person is not ours to guess.
      if (entries.length !== 1) return { outcome: 'refused', why: 'unknown' };
      dn = entries[0].dn;
      name = NAME_ATTRIBUTES.map((a) => firstText(entries[0][a])).find(Boolean);
    } else if (settings.bindDnTemplate) {
      dn = fill(settings.bindDnTemplate, email, escapeDnValue);
    } else {
      return { outcome: 'unavailable', cause: 'no way to find the person is configured' };
    }

    try {
      await client.bind(dn, password);
    } catch (err) {
      if (err instanceof InvalidCredentialsError) return { outcome: 'refused', why: 'password' };
      throw err;
    }
    if (name === undefined) name = await ownName(client, dn);
    return { outcome: 'verified', dn, name };
  } catch (err) {
    return { outcome: 'unavailable', cause: err instanceof Error ? err.message : String(err) };
  } finally {
    await client.unbind().catch(() => undefined);
  }
}

/** The person's own display name, read as themselves; a directory that hides it gives none (the caller falls back). */
async function ownName(client: Client, dn: string): Promise<string | undefined> {
  try {
    const { searchEntries } = await client.search(dn, { scope: 'base', attributes: NAME_ATTRIBUTES });
    return NAME_ATTRIBUTES.map((a) => firstText(searchEntries[0]?.[a])).find(Boolean);
  } catch {
    return undefined;
  }
}
