import { expect, test, type Page } from '@playwright/test';
import { accounts, signInAndLand, signInByApi } from './helpers/accounts';
import { expectNoAxeViolations } from './helpers/axe';
import { expectNoHorizontalOverflow, PHONE } from './helpers/phone-layout';
import { unique } from './paths/paths-support';

async function axeLightAndDark(page: Page) {
  await page.emulateMedia({ colorScheme: 'light' });
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: 'light' });
}

/** A lead as the landing page sends it: the local reCAPTCHA peer passes any 'pass-' token. */
async function submitLead(page: Page, lead: { name: string; phone: string; email: string }) {
  const response = await page.request.post('/api/v1/feedbacks/contact-form', {
    data: { ...lead, hearAboutUs: 'search', recaptcha_token: `pass-${Date.now()}` },
  });
  expect(response.status(), await response.text()).toBe(200);
  expect(((await response.json()) as { message: string }).message).toBe('Contact form has been sent successfully! Our team will contact you soon.');
}

test.describe('the superuser\'s Leads list', () => {
  test('a lead sent through the contact form appears for the superuser, reached from Client Management', async ({ page }) => {
    test.setTimeout(120_000);
    const name = unique('Aisyah Lead');
    const email = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '.')}@prospect.test`;
    await submitLead(page, { name, phone: '012-345 6789', email: email.toUpperCase() });

    await signInAndLand(page, accounts.superuser, /\/home$/);
    await page.goto('/clients');
    await page.getByRole('link', { name: 'Leads' }).click();
    await expect(page).toHaveURL(/\/leads$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Leads' })).toBeVisible();

    const table = page.getByRole('table', { name: 'Leads' });
    const row = table.getByRole('row').filter({ hasText: name });
    await expect(row).toHaveCount(1);
    // Newest first: the lead just sent is the first row; its phone without separators, its e-mail lower-cased.
    await expect(table.getByRole('row').nth(1)).toContainText(name);
    await expect(row.getByRole('link', { name: '0123456789' })).toBeVisible();
    await expect(row.getByRole('link', { name: email })).toBeVisible();
    await expect(row).toContainText('Search');
    await axeLightAndDark(page);

    // On a phone: cards, nothing off-screen.
    await page.setViewportSize(PHONE);
    await expect(row).toBeVisible();
    await expectNoHorizontalOverflow(page);
    await axeLightAndDark(page);
  });

  test('a failed load says so and offers Try again', async ({ page }) => {
    await signInByApi(page, accounts.superuser);
    let fail = true;
    await page.route('**/api/v1/feedbacks/contact-leads**', (route) => (fail ? route.fulfill({ status: 500, body: '{}' }) : route.fallback()));
    await page.goto('/leads');
    await expect(page.getByText('Failed to fetch leads').first()).toBeVisible();
    fail = false;
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect(page.getByRole('table', { name: 'Leads' }).getByRole('row').nth(1)).toBeVisible();
    await expect(page.getByText('Failed to fetch leads')).toHaveCount(0);
  });

  test('an empty list says No leads yet', async ({ page }) => {
    await signInByApi(page, accounts.superuser);
    const empty = { status: 'success', data: { leads: [], page: 1, page_size: 20, total: 0, total_pages: 0 } };
    await page.route('**/api/v1/feedbacks/contact-leads**', (route) => route.fulfill({ json: empty }));
    await page.goto('/leads');
    await expect(page.getByText('No leads yet')).toBeVisible();
    await expect(page.getByRole('table', { name: 'Leads' }).getByRole('row')).toHaveCount(1);
  });

  test('an admin is sent away from /leads', async ({ page }) => {
    await signInAndLand(page, accounts.admin, /\/home$/);
    await page.goto('/leads');
    await expect(page).toHaveURL(/\/home$/);
    await expect(page.getByText('Access denied. Only superusers can access this page.')).toBeVisible();
  });
});
