import { expect, test, type Page } from '@playwright/test';
import { accounts, signInByApi } from './helpers/accounts';
import { expectNoAxeViolations } from './helpers/axe';
import { unique } from './paths/paths-support';

const row = (page: Page, name: string) => page.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });
const search = (page: Page) => page.getByRole('searchbox', { name: 'Search departments' });

async function expectNoAxeViolationsLightAndDark(page: Page) {
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoAxeViolations(page);
  await page.emulateMedia({ colorScheme: 'light' });
}

test.describe('departments', () => {
  test('the admin adds a department and its units, renames it, refuses a taken name, and deletes them', async ({ page }) => {
    test.slow();
    await signInByApi(page, accounts.admin);
    await page.goto('/departments');
    await expect(page.getByRole('heading', { name: 'Department Management', level: 1 })).toBeVisible();
    // The demo organisation's departments, with their units as chips.
    await expect(row(page, 'Finance')).toBeVisible();
    await expectNoAxeViolationsLightAndDark(page);

    // Add Department: the name is required; the new one shows after the list is read again.
    const name = unique('Legal').replace(' ', '-');
    await page.getByRole('button', { name: 'Add Department' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Department' });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByText('Department name is required')).toBeVisible();
    await expectNoAxeViolationsLightAndDark(page);
    await dialog.getByRole('textbox', { name: 'Department Name' }).fill(`  ${name}  `);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Department created successfully')).toBeVisible();
    await expect(dialog).toHaveCount(0);
    await search(page).fill(name);
    await expect(row(page, name)).toBeVisible();
    await expect(page.getByRole('rowheader')).toHaveCount(1);

    // A name already taken (in another case) is refused with the server's sentence, and the dialog keeps it.
    await page.getByRole('button', { name: 'Add Department' }).click();
    await dialog.getByRole('textbox', { name: 'Department Name' }).fill(name.toUpperCase());
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('A department with this name already exists')).toBeVisible();
    await expect(dialog.getByRole('textbox', { name: 'Department Name' })).toHaveValue(name.toUpperCase());
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // Add Unit to {department}: the chip appears.
    await row(page, name).getByRole('button', { name: `Add unit to ${name}` }).click();
    const unitDialog = page.getByRole('dialog', { name: `Add Unit to ${name}` });
    await unitDialog.getByRole('textbox', { name: 'Unit Name' }).fill('Contracts');
    await unitDialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Unit created successfully')).toBeVisible();
    await expect(row(page, name).getByRole('list', { name: `Units of ${name}` })).toContainText('Contracts');

    // Edit Department.
    const renamed = `${name}-Affairs`;
    await row(page, name).getByRole('button', { name: `Edit department ${name}` }).click();
    const editDialog = page.getByRole('dialog', { name: 'Edit Department' });
    await expect(editDialog.getByRole('textbox', { name: 'Department Name' })).toHaveValue(name);
    await editDialog.getByRole('textbox', { name: 'Department Name' }).fill(renamed);
    await editDialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Department updated successfully')).toBeVisible();
    await expect(row(page, renamed)).toBeVisible();

    // Delete the unit, then the department, each after its confirmation (which says what happens to people).
    await row(page, renamed).getByRole('button', { name: 'Delete unit Contracts' }).click();
    const confirmUnit = page.getByRole('alertdialog', { name: 'Delete Unit' });
    await expect(confirmUnit).toContainText('Are you sure you want to delete this unit?');
    await expect(confirmUnit).toContainText('must choose them again on their Profile');
    await expectNoAxeViolationsLightAndDark(page);
    await confirmUnit.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('Unit deleted successfully')).toBeVisible();
    await expect(row(page, renamed).getByRole('list', { name: `Units of ${renamed}` })).not.toContainText('Contracts');
    await row(page, renamed).getByRole('button', { name: `Delete department ${renamed}` }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete Department' });
    await expect(confirm).toContainText('Are you sure you want to delete this department?');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('Department deleted successfully')).toBeVisible();
    await expect(page.getByText('No departments found')).toBeVisible();
  });

  test('a plain user is sent away from /departments', async ({ page }) => {
    await signInByApi(page, accounts.user);
    await page.goto('/departments');
    await expect(page).toHaveURL(/\/chat$/);
  });
});
