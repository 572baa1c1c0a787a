import { describe, expect, it } from 'vitest';
import { user as userSchema } from '../../contract/user';
import { isStoredUser, loadSession, saveSession } from '../../src/session/session-storage';

class MemoryStorage implements Storage {
  private map = new Map<string, string>();
  get length() { return this.map.size; }
  clear() { this.map.clear(); }
  getItem(k: string) { return this.map.get(k) ?? null; }
  key(i: number) { return [...this.map.keys()][i] ?? null; }
  removeItem(k: string) { this.map.delete(k); }
  setItem(k: string, v: string) { this.map.set(k, String(v)); }
}

const user = {
  id: 'u1', name: 'Nur User', email: 'user@demo.local', role: 'user' as const, status: 'active' as const, verified: true,
  package_name: 'free', image_url: null, department_id: null, unit_id: null, client_id: 'c1', features: ['browsing' as const, 'reasoning' as const],
};

describe('session storage', () => {
  it('keeps the session under the spec keys token, refreshToken and user', () => {
    const s = new MemoryStorage();
    saveSession({ token: 'a', refreshToken: 'r', user }, s);
    expect([s.getItem('token'), s.getItem('refreshToken'), JSON.parse(s.getItem('user')!)]).toEqual(['a', 'r', user]);
    expect(loadSession(s)).toEqual({ token: 'a', refreshToken: 'r', user });
  });
  it('clears the keys on logout', () => {
    const s = new MemoryStorage();
    saveSession({ token: 'a', refreshToken: 'r', user }, s);
    saveSession({ token: null, refreshToken: null, user: null }, s);
    expect(s.length).toBe(0);
  });
  it('ignores a tampered or outdated user record', () => {
    const s = new MemoryStorage();
    s.setItem('user', '{"id": 1}');
    expect(loadSession(s).user).toBeNull();
    s.setItem('user', 'not json');
    expect(loadSession(s).user).toBeNull();
  });
  it('accepts exactly the users the contract schema accepts', () => {
    const variants: unknown[] = [
      user,
      { ...user, role: 'admin', department_id: 'd1', unit_id: 'u1', image_url: 'https://x/y.png' },
      { ...user, role: 'root' },
      { ...user, status: 'pending' },
      { ...user, verified: 'yes' },
      { ...user, client_id: 5 },
      { ...user, email: undefined },
      { ...user, package_name: null },
      null,
      'user',
    ];
    for (const v of variants) expect(isStoredUser(v), JSON.stringify(v)).toBe(userSchema.safeParse(v).success);
  });
});
