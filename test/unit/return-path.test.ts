import { describe, expect, it } from 'vitest';
import { safeReturnPath } from '../../machines/return-path';
import { redirectFor, type Viewer } from '../../src/app/route-access';

const guest: Viewer = { authenticated: false, role: null, departmentId: null };
const user: Viewer = { authenticated: true, role: 'user', departmentId: 'd1' };

describe('returning to a shared link after sign-in (issue 28)', () => {
  it('sends a signed-out visitor of a shared link to sign in with the link to come back to; other routes plainly', () => {
    expect(redirectFor('login', guest, '/share/AbC_12-x')).toBe('/login?redirect=%2Fshare%2FAbC_12-x');
    expect(redirectFor('login', guest, '/chat')).toBe('/login');
    expect(redirectFor('admin', guest, '/users')).toBe('/login');
  });

  it('lands on the return path after sign-in, else Home', () => {
    expect(redirectFor('guestOnly', { ...user, justSignedIn: true, returnTo: '/share/abc' }, '/login')).toBe('/share/abc');
    expect(redirectFor('guestOnly', { ...user, justSignedIn: true, returnTo: null }, '/login')).toBe('/home');
    // A department still comes first for a plain user.
    expect(redirectFor('guestOnly', { ...user, departmentId: null, justSignedIn: true, returnTo: '/share/abc' }, '/login')).toBe('/profile');
  });

  it('keeps only paths of this app: no other host, scheme, or trick that a browser reads as one', () => {
    expect(safeReturnPath('/share/abc')).toBe('/share/abc');
    expect(safeReturnPath('/chat?id=1')).toBe('/chat?id=1');
    for (const bad of [
      'https://evil.example/share/x',
      '//evil.example/share/x',
      '/\\evil.example',
      '/share/x\\..\\',
      'javascript:alert(1)',
      ' /share/x',
      '/share/\tx',
      '/share/\nx',
      'share/x',
      '',
      '/',
      '/login',
      '/login?redirect=/share/x',
      '/logout',
      `/${'a'.repeat(2000)}`,
      null,
      undefined,
      42,
    ]) {
      expect(safeReturnPath(bad), String(bad)).toBeNull();
    }
  });
});
