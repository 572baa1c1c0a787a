import { expect, type APIRequestContext, type Page } from '@playwright/test';
import type { Department } from '../../../contract/departments';
import type { User } from '../../../contract/user';
import { signedInToken } from '../paths/paths-support';

/**
 * The signed-in admin's people and departments through the API, for setting a Users-page test up: people registered
 * as the Register page does (unverified, active), a department with a unit for the Edit User dialog. Every name
 * carries the test's own word; `cleanUp` deactivates the test's people (people cannot be deleted; inactive ones hold
 * no seat of the organisation's subscription) and deletes its departments.
 */
export class UsersApi {
  private readonly people: User[] = [];
  private readonly departments: Department[] = [];

  private constructor(
    private readonly request: APIRequestContext,
    private readonly token: string,
  ) {}

  static async of(page: Page) {
    return new UsersApi(page.request, await signedInToken(page));
  }

  private get headers() {
    return { Authorization: `Bearer ${this.token}` };
  }

  /** POST /auth/register as the admin: a plain user of the admin's organisation, still to verify. */
  async register(name: string): Promise<User> {
    const email = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '.')}@example.test`;
    const res = await this.request.post('/api/v1/auth/register', { headers: this.headers, data: { name, email, role: 'user' } });
    expect(res.status(), await res.text()).toBe(200);
    const user = ((await res.json()) as { data: User }).data;
    this.people.push(user);
    return user;
  }

  async department(name: string, units: string[]): Promise<Department> {
    const res = await this.request.post('/api/v1/departments/', { headers: this.headers, data: { name } });
    expect(res.status()).toBe(200);
    const dept = ((await res.json()) as { data: Department }).data;
    for (const unit of units) {
      const added = await this.request.post(`/api/v1/departments/${dept.id}/units`, { headers: this.headers, data: { name: unit } });
      expect(added.status()).toBe(200);
      dept.units.push(((await added.json()) as { data: { id: string; name: string } }).data);
    }
    this.departments.push(dept);
    return dept;
  }

  /** The person as the server has them now. */
  async get(user: User, search = user.email): Promise<User> {
    const res = await this.request.get('/api/v1/users/', { headers: this.headers, params: { search } });
    expect(res.status()).toBe(200);
    const found = ((await res.json()) as { data: { users: User[] } }).data.users.find((u) => u.id === user.id);
    expect(found).toBeTruthy();
    return found!;
  }

  /** PATCH /users/{id}/status: puts one of the test's people in a status before a step that needs it. */
  async setStatus(user: User, status: User['status']) {
    const res = await this.request.patch(`/api/v1/users/${user.id}/status`, { headers: this.headers, params: { status } });
    expect(res.status()).toBe(200);
  }

  async cleanUp() {
    for (const p of this.people) {
      const res = await this.request.patch(`/api/v1/users/${p.id}/status`, { headers: this.headers, params: { status: 'inactive' } });
      expect(res.status()).toBe(200);
    }
    for (const d of this.departments) {
      const res = await this.request.delete(`/api/v1/departments/${d.id}`, { headers: this.headers });
      expect([200, 404]).toContain(res.status());
    }
  }
}
