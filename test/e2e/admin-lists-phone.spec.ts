import { expect, test, type Locator, type Page } from '@playwright/test';
import { accounts, signInAndLand } from './helpers/accounts';
import { expectNoAxeViolations } from './helpers/axe';
import { seededConversation } from './helpers/seed';
import { unique } from './paths/paths-support';

/**
 * The admin lists on a phone (390 px): each is a list of cards instead of a table wider than the screen (the Users
 * table was 474 px wide, its Status and Actions off-screen). On every card each value carries its column's name,
 * and every control is on screen. Screenshots of each list, light and dark, are attached to the report.
 */

const PHONE = { width: 390, height: 844 };

/** The page does not scroll sideways. */
async function expectNoSidewaysScroll(page: Page) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth };
  });
  expect(scrollWidth, `the page is ${scrollWidth} px wide in a ${clientWidth} px viewport`).toBeLessThanOrEqual(clientWidth);
}

/** Whole inside the viewport's width (not cut off at the right edge, not scrolled away to the left). */
async function expectOnScreen(control: Locator) {
  await expect(control).toBeVisible();
  const box = (await control.boundingBox())!;
  expect(box.x, 'its left edge').toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, 'its right edge').toBeLessThanOrEqual(PHONE.width);
}

/** The label a card shows before a cell's value (drawn by CSS from the column's name). */
const labelOf = (cell: Locator) => cell.evaluate((el) => getComputedStyle(el, '::before').content.replace(/^"|"$/g, ''));

async function lookAt(page: Page, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expectNoAxeViolations(page);
    await test.info().attach(`${name}-390-${scheme}.png`, { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test.describe('admin lists on a phone', () => {
  test.use({ viewport: PHONE });

  test.beforeEach(async ({ page }) => {
    // Sign-in, the list, and axe in light and dark on a busy machine.
    test.slow();
    await signInAndLand(page, accounts.admin, /\/home$/);
  });

  test('Users: cards with Status and Actions on screen, each value labelled', async ({ page }) => {
    await page.goto('/users');
    await expect(page.getByRole('heading', { name: 'User Management', level: 1 })).toBeVisible();
    const card = page.getByRole('row').filter({ has: page.getByRole('rowheader').filter({ hasText: accounts.user }) });
    await expect(card).toBeVisible();
    await expectNoSidewaysScroll(page);
    const statusCell = card.locator('td').filter({ has: page.getByRole('switch', { name: /^Status of / }) });
    await expectOnScreen(statusCell);
    await expectOnScreen(card.getByRole('button', { name: /^Edit user / }));
    expect(await labelOf(statusCell)).toBe('Status');
    expect(await labelOf(card.locator('td').last())).toBe('Actions');
    expect(await labelOf(card.locator('td').first())).toBe('Role');
    // The cards stack: the Status line sits below the person's name, not beside it.
    const nameBox = (await card.getByRole('rowheader').boundingBox())!;
    const statusBox = (await statusCell.boundingBox())!;
    expect(statusBox.y).toBeGreaterThan(nameBox.y + nameBox.height - 1);
    // The same controls work: Edit opens the dialog.
    await card.getByRole('button', { name: /^Edit user / }).click();
    await expect(page.getByRole('dialog', { name: 'Edit User' })).toBeVisible();
    await page.getByRole('dialog', { name: 'Edit User' }).getByRole('button', { name: 'Cancel' }).click();
    await lookAt(page, 'users');
  });

  test('Departments: cards with the units and the actions on screen', async ({ page }) => {
    await page.goto('/departments');
    await expect(page.getByRole('heading', { name: 'Department Management', level: 1 })).toBeVisible();
    const card = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Engineering', exact: true }) });
    await expect(card).toBeVisible();
    await expectNoSidewaysScroll(page);
    await expectOnScreen(card.getByRole('button', { name: 'Edit department Engineering' }));
    await expectOnScreen(card.getByRole('button', { name: 'Delete department Engineering' }));
    await expectOnScreen(card.getByRole('button', { name: 'Add unit to Engineering' }));
    expect(await labelOf(card.locator('td').first())).toBe('Units');
    expect(await labelOf(card.locator('td').last())).toBe('Actions');
    await lookAt(page, 'departments');
  });

  test('Home: the usage summary and the report fit, the report as cards with its sort buttons', async ({ page, request }) => {
    // A question this month, so the report has a row.
    await seededConversation(request, unique('Phone report question'));
    await page.reload();
    await expect(page.getByRole('tab', { name: 'Reports' })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await lookAt(page, 'home-summary');
    await page.getByRole('tab', { name: 'Reports' }).click();
    await page.getByRole('button', { name: 'Apply Filters' }).click();
    const table = page.getByRole('table', { name: /^Report by/ });
    const card = table.locator('tbody tr').first();
    await expect(card).toBeVisible();
    await expectNoSidewaysScroll(page);
    for (const cell of await card.locator('td').all()) await expectOnScreen(cell);
    expect(await labelOf(card.locator('td').first())).toBe('Department');
    const queries = table.getByRole('columnheader', { name: 'Queries', exact: true });
    await expectOnScreen(queries.getByRole('button'));
    await queries.getByRole('button').click();
    await expect(queries).toHaveAttribute('aria-sort', 'ascending');
    await lookAt(page, 'home-reports');
  });
});
