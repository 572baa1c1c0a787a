import { describe, expect, it } from 'vitest';
import { redirectFor, redirectNotice, sidebarVisible, NAV_LINKS, type Viewer } from '../../src/app/route-access';
import { themeColorFor } from '../../src/app/theme-color';

const guest: Viewer = { authenticated: false, role: null, departmentId: null };
const user: Viewer = { authenticated: true, role: 'user', departmentId: 'd1' };
const newhire: Viewer = { ...user, departmentId: null };
const admin: Viewer = { authenticated: true, role: 'admin', departmentId: null };
const superuser: Viewer = { authenticated: true, role: 'superuser', departmentId: null };

describe('route guards in the spec order', () => {
  it('1. unauthenticated visitors on protected routes go to Login', () => {
    for (const access of ['login', 'admin', 'adminOrSuperuser', 'superuser'] as const) expect(redirectFor(access, guest, '/x')).toBe('/login');
    expect(redirectFor('public', guest, '/playground')).toBeNull();
    expect(redirectFor('guestOnly', guest, '/login')).toBeNull();
  });
  it('2. role-restricted routes send other roles to Home', () => {
    expect(redirectFor('admin', superuser, '/users')).toBe('/home');
    expect(redirectFor('admin', user, '/users')).toBe('/home');
    expect(redirectFor('superuser', admin, '/clients')).toBe('/home');
    expect(redirectFor('adminOrSuperuser', user, '/register')).toBe('/home');
    expect(redirectFor('adminOrSuperuser', admin, '/register')).toBeNull();
    expect(redirectFor('adminOrSuperuser', superuser, '/register')).toBeNull();
  });
  it('3. a plain user without a department is held on Profile, except Profile and Logout', () => {
    expect(redirectFor('login', newhire, '/chat')).toBe('/profile');
    expect(redirectFor('login', newhire, '/profile')).toBeNull();
    expect(redirectFor('public', newhire, '/logout')).toBeNull();
    expect(redirectFor('login', admin, '/chat')).toBeNull();
    // Role check comes first: the user is sent Home, and from there on to Profile.
    expect(redirectFor('admin', newhire, '/users')).toBe('/home');
  });
  it('signed-in visitors skip the landing and login pages', () => {
    expect(redirectFor('guestOnly', user, '/')).toBe('/home');
    expect(redirectFor('guestOnly', user, '/login')).toBe('/chat');
    expect(redirectFor('guestOnly', { ...admin, justSignedIn: true }, '/login')).toBe('/home');
  });
});

describe('what a person sent away is told', () => {
  it("says the spec's sentence to signed-in non-superusers on superuser pages, and nothing elsewhere", () => {
    expect(redirectNotice('superuser', admin)).toBe('Access denied. Only superusers can access this page.');
    expect(redirectNotice('superuser', user)).toBe('Access denied. Only superusers can access this page.');
    expect(redirectNotice('superuser', superuser)).toBeNull();
    expect(redirectNotice('superuser', guest)).toBeNull();
    expect(redirectNotice('admin', user)).toBeNull();
  });
});

describe('sidebar', () => {
  it('links by role', () => {
    const linksFor = (role: 'user' | 'admin' | 'superuser') => NAV_LINKS.filter((l) => l.roles.includes(role)).map((l) => l.label);
    expect(linksFor('superuser')).toEqual(['Home', 'Clients', 'System Prompts', 'Feedback Inbox']);
    expect(linksFor('admin')).toEqual(['Home', 'Chat', 'Users', 'Departments', 'Global Policy', 'Feedback Inbox']);
    expect(linksFor('user')).toEqual(['Chat']);
  });
  it('is hidden for guests, plain users, and on login, activate and the SSO callback', () => {
    expect(sidebarVisible(admin, '/home')).toBe(true);
    expect(sidebarVisible(guest, '/playground')).toBe(false);
    expect(sidebarVisible(user, '/chat')).toBe(false);
    for (const p of ['/login', '/activate', '/activate/abc', '/auth/sso']) expect(sidebarVisible(admin, p)).toBe(false);
  });
});

describe('theme colour', () => {
  it('follows route name and colour scheme', () => {
    expect(themeColorFor('Login', true)).toBe('rgb(222, 200, 78)');
    expect(themeColorFor('SsoCallback', false)).toBe('rgb(222, 200, 78)');
    expect(themeColorFor('Chat', false)).toBe('#E5E7EB');
    expect(themeColorFor('SharedChat', true)).toBe('#111827');
    expect(themeColorFor('Profile', true)).toBe('#1f2937');
    expect(themeColorFor(undefined, false)).toBe('#F9F9F9');
  });
});
