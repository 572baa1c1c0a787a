import { expect, test, type Page } from '@playwright/test';
import { POLICY_MAX_WORDS } from '../../contract/global-policy-constants';
import { accounts, signInByApi } from './helpers/accounts';
import { expectNoAxeViolations } from './helpers/axe';
import { runExclusively } from './helpers/exclusive';

const policyBox = (page: Page) => page.getByRole('textbox', { name: 'Policy Prompt' });
const save = (page: Page) => page.getByRole('button', { name: 'Save Policy' });
const reset = (page: Page) => page.getByRole('button', { name: 'Reset' });

test.describe('global policy', () => {
  // One organisation's one policy: the tests that change it take turns (with the policy editor's paths too).
  test.describe.configure({ mode: 'serial' });
  runExclusively('global-policy');

  test('leaving with unsaved changes asks first: staying keeps the text, discarding leaves', async ({ page }) => {
    await signInByApi(page, accounts.admin);
    await page.goto('/global-policy');
    await expect(policyBox(page)).toBeEditable();
    const before = await policyBox(page).inputValue();
    // Nothing changed: the sidebar's links leave at once.
    await page.getByRole('link', { name: 'Departments' }).first().click();
    await expect(page).toHaveURL(/\/departments$/);
    await page.goto('/global-policy');
    await expect(policyBox(page)).toBeEditable();

    await policyBox(page).fill(`Unsaved draft ${Date.now()}`);
    const draft = await policyBox(page).inputValue();
    await page.getByRole('link', { name: 'Departments' }).first().click();
    const dialog = page.getByRole('alertdialog', { name: 'Discard unsaved changes?' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('If you leave this page now, they will be lost.');
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: 'Stay on this page' }).click();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/global-policy$/);
    await expect(policyBox(page)).toHaveValue(draft);

    await page.getByRole('link', { name: 'Departments' }).first().click();
    await dialog.getByRole('button', { name: 'Discard and leave' }).click();
    await expect(page).toHaveURL(/\/departments$/);
    await page.goto('/global-policy');
    await expect(policyBox(page)).toHaveValue(before);
  });

  test('the admin edits, resets and saves the policy; the counter warns near and over the limit', async ({ page }) => {
    await signInByApi(page, accounts.admin);
    await page.goto('/global-policy');
    await expect(page.getByRole('heading', { name: 'Global Policy', level: 1 })).toBeVisible();
    await expect(policyBox(page)).toBeEditable();
    const before = await policyBox(page).inputValue();
    // Nothing changed: nothing to save or reset.
    await expect(save(page)).toBeDisabled();
    await expect(reset(page)).toBeDisabled();
    await expectNoAxeViolations(page);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectNoAxeViolations(page);
    await page.emulateMedia({ colorScheme: 'light' });

    const policy = `Answer in British English. Never include customer personal data. ${Date.now()}`;
    await policyBox(page).fill(policy);
    await expect(page.getByText('10 / 1,500 words')).toBeVisible();
    await expect(page.getByText('Unsaved changes')).toBeVisible();
    await reset(page).click();
    await expect(policyBox(page)).toHaveValue(before);
    await expect(save(page)).toBeDisabled();

    // Near the limit (above 90%) and over it: Save is refused over it.
    const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
    await policyBox(page).fill(words(1400));
    await expect(page.getByText('1,400 / 1,500 words — near the limit')).toBeVisible();
    await expect(save(page)).toBeEnabled();
    await policyBox(page).fill(words(POLICY_MAX_WORDS + 1));
    await expect(page.getByText('1,501 / 1,500 words — over the limit')).toBeVisible();
    await expect(save(page)).toBeDisabled();

    await policyBox(page).fill(`  ${policy}  `);
    await save(page).click();
    await expect(page.getByText('Global policy updated successfully')).toBeVisible();
    await expect(policyBox(page)).toHaveValue(policy);
    await expect(save(page)).toBeDisabled();
    await page.reload();
    await expect(policyBox(page)).toHaveValue(policy);

    // The organisation's policy as it was (a deployment's QA run leaves it unchanged).
    await policyBox(page).fill(before);
    await save(page).click();
    await expect(save(page)).toBeDisabled();
    await page.reload();
    await expect(policyBox(page)).toHaveValue(before.trim());
  });

  test('a failed save says so and keeps the text', async ({ page }) => {
    await signInByApi(page, accounts.admin);
    await page.goto('/global-policy');
    await expect(policyBox(page)).toBeEditable();
    await page.route('**/api/v1/global-policy/**', (route) => (route.request().method() === 'PUT' ? route.abort() : route.fallback()));
    await policyBox(page).fill('This will not be saved.');
    await save(page).click();
    await expect(page.getByText('Failed to update global policy')).toBeVisible();
    await expect(policyBox(page)).toHaveValue('This will not be saved.');
    await expect(save(page)).toBeEnabled();
  });

  test('a plain user is sent away from /global-policy', async ({ page }) => {
    await signInByApi(page, accounts.user);
    await page.goto('/global-policy');
    await expect(page).toHaveURL(/\/chat$/);
  });
});
