import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { securityHeaders, THEME_SCRIPT_HASH } from '../../server/http/security';
import { THEME_STORAGE_KEY } from '../../contract/theme';

// The CSP allows index.html's inline script by its hash: an edit to the script that forgets the hash would leave
// every page without its theme before the first paint (the browser refuses the script, silently but for the console).
const html = readFileSync(new URL('../../index.html', import.meta.url), 'utf8');
const inlineScripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
const hashOf = (source: string) => `'sha256-${createHash('sha256').update(source).digest('base64')}'`;

describe('the inline theme script in index.html', () => {
  it('is the only inline script, and the CSP allows exactly it', () => {
    expect(inlineScripts).toHaveLength(1);
    expect(hashOf(inlineScripts[0])).toBe(THEME_SCRIPT_HASH);
    const csp = securityHeaders().set['content-security-policy'];
    expect(csp).toContain(`script-src 'self' ${THEME_SCRIPT_HASH}`);
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  });

  it('reads the key the session caches the choice under', () => {
    expect(inlineScripts[0]).toContain(`localStorage.getItem('${THEME_STORAGE_KEY}')`);
  });
});
