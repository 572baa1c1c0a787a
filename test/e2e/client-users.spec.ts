import { expect, test } from '@playwright/test';
import { accounts, signInAndLand } from './helpers/accounts';
import { expectNoAxeViolations } from './helpers/axe';
import { signedInToken } from './paths/paths-support';

test.describe("a client's users (superuser)", () => {
  test("/clients/{id}/users lists that client's people, edits them, and registers its admins", async ({ page }) => {
    await signInAndLand(page, accounts.superuser, /\/home$/);
    const token = await signedInToken(page);
    const res = await page.request.get('/api/v1/clients/', { headers: { Authorization: `Bearer ${token}` }, params: { search: 'Demo Organisation' } });
    expect(res.ok(), await res.text()).toBe(true);
    const demo = ((await res.json()) as { data: { clients: { id: string; client_name: string }[] } }).data.clients.find(
      (c) => c.client_name === 'Demo Organisation',
    )!;

    await page.goto(`/clients/${demo.id}/users`);
    await expect(page.getByRole('heading', { name: 'Client Users Management' })).toBeVisible();
    await expect(page).toHaveTitle(/Client Users Management/);
    // The demo organisation's people, not the superuser (who belongs to none).
    const table = page.getByRole('table', { name: 'Users' });
    await expect(table.getByText('admin@demo.local')).toBeVisible();
    await expect(table.getByText('user@demo.local')).toBeVisible();
    await expect(table.getByText('super@demo.local')).toHaveCount(0);

    // The Edit User dialog offers that organisation's departments (the superuser has none of its own).
    await table.getByRole('button', { name: 'Edit user Nur User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit User' });
    await dialog.getByRole('button', { name: /Department$/ }).click();
    await expect(page.getByRole('option', { name: 'Engineering' })).toBeVisible();
    await page.keyboard.press('Escape');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();

    await expectNoAxeViolations(page);

    // A superuser registers admins only, into the client shown.
    const register = page.getByRole('link', { name: 'Register Admin User' });
    await expect(register).toHaveAttribute('href', `/register?role=admin&client_id=${demo.id}`);
    await register.click();
    await expect(page.getByRole('heading', { name: 'New User Information' })).toBeVisible();
  });
});
