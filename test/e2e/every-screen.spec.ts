import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { accounts, signInAndLand } from './helpers/accounts';
import { expectDisabledControlsLegible, expectNoAxeViolations } from './helpers/axe';
import { textDocument, uploadDocument } from './helpers/documents-api';
import { expectNoHorizontalOverflow, PHONE } from './helpers/phone-layout';
import { signedInToken, unique } from './paths/paths-support';
import { seededConversation } from './helpers/seed';

/**
 * Every route of the route map and every modal, as each role meets them (issue 28): axe-core in light and in dark
 * at a laptop's width, and at 390 px no sideways scroll (the screen narrowed with its modal open). Each role signs in
 * once and its screens share that page; each screen is a test of its own, so one failing screen names itself and
 * the others still run. Set-up goes through the API only, so the sweep replays against staging.
 *
 * Adding a screen: a line in the role's list below, with where it is, what shows once it has settled and, for a
 * modal, how it is opened.
 */

interface Screen {
  name: string;
  /** The route to open (the role's set-up supplies ids). */
  path: (setup: Setup) => string;
  /** Visible once the screen has its content. */
  ready: (page: Page) => Locator;
  /** Opens a modal, menu or tab on the screen; returns it, visible once open. */
  open?: (page: Page, setup: Setup) => Promise<Locator>;
  /** Only exists on a phone (the conversations drawer): checked there in light and dark. */
  phoneOnly?: boolean;
}

/** What a role's screens need that the demo data may not have: made through the API in the role's first step. */
interface Setup {
  conversationId: string;
  documentName: string;
  sharePath: string;
  /** The demo organisation's id (the superuser's client Users page). */
  clientId: string;
}
const NO_SETUP: Setup = { conversationId: '', documentName: '', sharePath: '', clientId: '' };

const LAPTOP = { width: 1280, height: 720 };
const h1 = (name: string | RegExp) => (page: Page) => page.getByRole('heading', { level: 1, name });
const anyH1 = (page: Page) => page.getByRole('heading', { level: 1 });
/** Something that only a screen with its list read shows (a list's row buttons, a reply). */
const button = (name: string | RegExp) => (page: Page) => page.getByRole('button', { name }).first();

async function click(page: Page, name: string | RegExp, within?: Locator) {
  await (within ?? page).getByRole('button', { name, exact: typeof name === 'string' }).first().click();
}

const dialog = (name: string | RegExp) => (page: Page) => page.getByRole('dialog', { name });
const alertDialog = (name: string | RegExp) => (page: Page) => page.getByRole('alertdialog', { name });

/** Opens with the button named `trigger` and returns what `target` finds. */
const via =
  (trigger: string | RegExp, target: (page: Page) => Locator) =>
  async (page: Page): Promise<Locator> => {
    await click(page, trigger);
    return target(page);
  };

const profileMenu = via('Account details', dialog('Profile'));
const fromProfileMenu = (item: string) => async (page: Page) => {
  await click(page, 'Account details');
  await click(page, item);
  return dialog(item)(page);
};

/** Screens every signed-in role has. */
const everyone: Screen[] = [
  { name: 'profile', path: () => '/profile', ready: h1('My Profile') },
  { name: '404', path: () => '/no/such/page', ready: h1('Oops! Page not found') },
];

/** People of an organisation choose their department (a superuser belongs to none). */
const departmentSelect: Screen = {
  name: 'profile, department select open',
  path: () => '/profile',
  ready: h1('My Profile'),
  open: via(/Department/, (p) => p.getByRole('listbox')),
};

const chatPath = (s: Setup) => `/chat?id=${encodeURIComponent(s.conversationId)}`;
const reply = (page: Page) => page.getByRole('article', { name: 'Assistant message' }).last();

/** The chat and its modals (user and admin both chat). */
const chatScreens: Screen[] = [
  { name: 'new chat', path: () => '/chat', ready: (p) => p.getByRole('heading', { name: 'How can I help you today?' }) },
  { name: 'a conversation', path: chatPath, ready: reply },
  { name: 'an unknown conversation', path: () => '/chat?id=no-such-conversation', ready: anyH1 },
  { name: 'Tips', path: chatPath, ready: reply, open: via('Tips', dialog('Tips')) },
  { name: 'Prompt Library', path: chatPath, ready: reply, open: via('Prompt library', dialog('Prompt Library')) },
  {
    name: 'New Prompt',
    path: chatPath,
    ready: reply,
    open: async (page) => {
      await click(page, 'Prompt library');
      await click(page, 'New Prompt', dialog('Prompt Library')(page));
      return dialog('New Prompt')(page);
    },
  },
  {
    name: 'Edit Prompt',
    path: chatPath,
    ready: reply,
    open: async (page) => {
      await click(page, 'Prompt library');
      await click(page, 'Edit prompt', dialog('Prompt Library')(page));
      return dialog('Edit Prompt')(page);
    },
  },
  {
    name: 'Delete Prompt',
    path: chatPath,
    ready: reply,
    open: async (page) => {
      await click(page, 'Prompt library');
      await click(page, 'Delete prompt', dialog('Prompt Library')(page));
      return alertDialog('Delete Prompt')(page);
    },
  },
  {
    name: 'Save to prompt library',
    path: chatPath,
    ready: reply,
    open: async (page) => {
      const question = page.getByRole('article', { name: 'Your message' }).last();
      await question.hover();
      await click(page, 'Save to prompt library', question);
      return dialog('Save to Personal Prompt Library')(page);
    },
  },
  { name: 'Attached Documents', path: chatPath, ready: reply, open: via(/^\d+ Documents?$/, dialog('Attached Documents')) },
  {
    name: 'Delete Document',
    path: chatPath,
    ready: reply,
    open: async (page, setup) => {
      await click(page, /^\d+ Documents?$/);
      await click(page, `Delete ${setup.documentName}`, dialog('Attached Documents')(page));
      return alertDialog('Delete Document')(page);
    },
  },
  { name: 'Share', path: chatPath, ready: reply, open: via('Share', dialog('Share Conversation')) },
  { name: 'Features menu', path: chatPath, ready: reply, open: via(/^Features/, (p) => p.getByRole('menu')) },
  { name: 'Reasoning menu', path: chatPath, ready: reply, open: via(/^Reasoning: /, (p) => p.getByRole('menu', { name: /^Reasoning: / })) },
  {
    name: 'Delete Conversation',
    path: chatPath,
    ready: reply,
    open: async (page) => {
      const nav = page.getByRole('navigation', { name: 'Conversations' });
      await nav.getByRole('button', { name: /^Delete / }).first().click();
      return alertDialog('Delete Conversation')(page);
    },
  },
  { name: 'profile menu (chat)', path: chatPath, ready: reply, open: profileMenu },
  { name: 'Submit Feedback', path: chatPath, ready: reply, open: fromProfileMenu('Submit Feedback') },
  { name: 'Report an Issue', path: chatPath, ready: reply, open: fromProfileMenu('Report an Issue') },
  { name: 'conversations drawer', path: chatPath, ready: reply, phoneOnly: true, open: via('Open menu', dialog('Conversations')) },
  {
    name: 'thumbs down, comment',
    path: chatPath,
    ready: reply,
    open: async (page) => {
      await click(page, 'Bad reply', reply(page));
      return page.getByRole('dialog');
    },
  },
  { name: 'shared conversation', path: (s) => s.sharePath, ready: (p) => p.getByRole('article', { name: 'Shared reply' }) },
  { name: 'shared links', path: () => '/shared-links', ready: button(/^Stop sharing /) },
  { name: 'Stop Sharing', path: () => '/shared-links', ready: button(/^Stop sharing /), open: via(/^Stop sharing /, alertDialog('Stop Sharing')) },
];

/** Admins read their organisation's feedback, the superuser everyone's. */
const feedbackInbox: Screen = { name: 'feedback inbox', path: () => '/feedback-inbox', ready: h1('Feedback Inbox') };

const roles: Record<'user' | 'admin' | 'superuser' | 'signed out', Screen[]> = {
  'signed out': [
    { name: 'landing', path: () => '/', ready: anyH1 },
    { name: 'login', path: () => '/login', ready: h1('Welcome Back') },
    {
      name: 'password reset request',
      path: () => '/login',
      ready: h1('Welcome Back'),
      open: async (page) => {
        await page.getByRole('link', { name: 'Forgot password?' }).click();
        return page.getByRole('dialog');
      },
    },
    { name: 'single sign-on callback', path: () => '/auth/sso', ready: (p) => p.getByText(/Processing authentication|Welcome Back/).first() },
    { name: 'activation, unknown link', path: () => '/activate/not-a-real-activation-code', ready: anyH1 },
    { name: 'password reset, unknown link', path: () => '/reset-password/not-a-real-reset-token', ready: anyH1 },
    { name: 'playground', path: () => '/playground', ready: h1('Component Playground') },
    { name: 'playground modal', path: () => '/playground', ready: h1('Component Playground'), open: via('Open lg modal', dialog('Modal (lg)')) },
    { name: 'playground confirmation', path: () => '/playground', ready: h1('Component Playground'), open: via('Open confirm dialog', alertDialog('Confirm Action')) },
    { name: '404', path: () => '/no/such/page', ready: h1('Oops! Page not found') },
  ],
  user: [...chatScreens, ...everyone, departmentSelect, { name: 'tips example', path: () => '/tips-example', ready: dialog('Tips') }],
  admin: [
    { name: 'usage dashboard', path: () => '/home', ready: h1('Usage Dashboard') },
    {
      name: 'usage reports',
      path: () => '/home',
      ready: h1('Usage Dashboard'),
      open: async (page) => {
        await page.getByRole('tab', { name: 'Reports' }).click();
        return page.getByRole('tabpanel');
      },
    },
    { name: 'profile menu', path: () => '/home', ready: h1('Usage Dashboard'), open: profileMenu },
    { name: 'users', path: () => '/users', ready: button(/^Edit user /) },
    { name: 'Edit User', path: () => '/users', ready: button(/^Edit user /), open: via(/^Edit user /, dialog('Edit User')) },
    {
      name: 'Deactivate User',
      path: () => '/users',
      ready: button(/^Edit user /),
      // Turning someone's switch off asks first; the sweep looks at the question and never answers it.
      open: async (page) => {
        const active = page.getByRole('switch', { name: /^Status of /, checked: true, disabled: false }).first();
        await active.locator('xpath=ancestor::label[1]').click();
        return alertDialog('Deactivate User')(page);
      },
    },
    { name: 'register', path: () => '/register', ready: anyH1 },
    { name: 'departments', path: () => '/departments', ready: button(/^Edit department /) },
    { name: 'Add Department', path: () => '/departments', ready: button(/^Edit department /), open: via('Add Department', dialog('Add Department')) },
    { name: 'Edit Department', path: () => '/departments', ready: button(/^Edit department /), open: via(/^Edit department /, dialog('Edit Department')) },
    { name: 'Add Unit', path: () => '/departments', ready: button(/^Edit department /), open: via(/^Add unit to /, dialog(/^Add Unit to /)) },
    { name: 'Delete Department', path: () => '/departments', ready: button(/^Edit department /), open: via(/^Delete department /, alertDialog('Delete Department')) },
    { name: 'Delete Unit', path: () => '/departments', ready: button(/^Delete unit /), open: via(/^Delete unit /, alertDialog('Delete Unit')) },
    {
      // A pending Save that goes away with its dialog: react-aria's busy/done announcement must keep a name.
      name: 'Edit Department, saved as it was',
      path: () => '/departments',
      ready: button(/^Edit department /),
      open: async (page) => {
        await click(page, /^Edit department /);
        const form = dialog('Edit Department')(page);
        await click(page, 'Save', form);
        await expect(form).toHaveCount(0);
        return page.getByText('Department updated successfully');
      },
    },
    { name: 'global policy', path: () => '/global-policy', ready: (p) => p.getByRole('textbox').first() },
    { name: 'chat', path: () => '/chat', ready: (p) => p.getByRole('heading', { name: 'How can I help you today?' }) },
    feedbackInbox,
    ...everyone,
    departmentSelect,
  ],
  superuser: [
    { name: 'home', path: () => '/home', ready: h1('Client Management') },
    { name: 'clients', path: () => '/clients', ready: button(/View Details/) },
    { name: 'Register New Client', path: () => '/clients', ready: button(/View Details/), open: via('Register New Client', dialog('Register New Client')) },
    { name: 'Edit Client', path: () => '/clients', ready: button(/View Details/), open: via(/Edit Client/, dialog('Edit Client')) },
    { name: 'Client Details', path: () => '/clients', ready: button(/View Details/), open: via(/View Details/, dialog(/^Client Details/)) },
    { name: 'Client Usage Analytics', path: () => '/clients', ready: button(/View Details/), open: via(/View Usage/, dialog(/^Client Usage Analytics/)) },
    { name: 'OAuth Configurations', path: () => '/clients', ready: button(/View Details/), open: via(/OAuth Config/, dialog(/^OAuth Configurations/)) },
    { name: 'client users', path: (s) => `/clients/${encodeURIComponent(s.clientId)}/users`, ready: button(/^Edit user/) },
    { name: 'system prompts', path: () => '/system-prompts', ready: anyH1 },
    { name: 'register', path: () => '/register', ready: anyH1 },
    { name: 'profile menu', path: () => '/home', ready: anyH1, open: profileMenu },
    feedbackInbox,
    { name: 'leads', path: () => '/leads', ready: h1('Leads') },
    ...everyone,
  ],
};

/** The user's conversation with a reply, a document and a share, and a saved prompt: made as the app makes them. */
async function setUpUser(page: Page): Promise<Setup> {
  const token = await signedInToken(page);
  const headers = { Authorization: `Bearer ${token}` };
  const conversationId = await seededConversation(page.request, unique('Give me three tips for a tidy inbox'));
  const documentName = `${unique('sweep-note').replace(' ', '-')}.txt`;
  await uploadDocument(page.request, token, conversationId, textDocument(documentName, 'The sweep checks every screen.'));
  const prompt = await page.request.post('/api/v1/prompt-libraries/', { headers, data: { prompt: unique('Summarise this for a manager'), tags: ['sweep'] } });
  expect(prompt.ok(), await prompt.text()).toBe(true);
  const share = await page.request.post(`/api/v1/shares/conversations/${encodeURIComponent(conversationId)}`, { headers });
  expect(share.ok(), await share.text()).toBe(true);
  const shareUrl = ((await share.json()) as { data: { share_url: string } }).data.share_url;
  return { conversationId, documentName, sharePath: new URL(shareUrl).pathname, clientId: '' };
}

/** The superuser's screens read the demo organisation (found by name, as the Clients page's search does). */
async function setUpSuperuser(page: Page): Promise<Setup> {
  const headers = { Authorization: `Bearer ${await signedInToken(page)}` };
  const res = await page.request.get('/api/v1/clients/', { headers, params: { search: 'Demo Organisation' } });
  expect(res.ok(), await res.text()).toBe(true);
  const clients = ((await res.json()) as { data: { clients: { id: string; client_name: string }[] } }).data.clients;
  return { ...NO_SETUP, clientId: clients.find((c) => c.client_name === 'Demo Organisation')!.id };
}

/** A screen's first render is app boot plus its lazy code, slow on 2 cores shared with other runs. */
const LOAD_TIMEOUT = 30_000;

async function show(page: Page, screen: Screen, setup: Setup) {
  await page.goto(screen.path(setup));
  await expect(screen.ready(page)).toBeVisible({ timeout: LOAD_TIMEOUT });
  if (!screen.open) return;
  await expect(await screen.open(page, setup)).toBeVisible();
}

/** Two frames: the resize's media-query changes and the renders they cause are laid out. */
async function settleLayout(page: Page) {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

async function axeLightAndDark(page: Page) {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await expectNoAxeViolations(page);
    await expectDisabledControlsLegible(page);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

function sweep(role: keyof typeof roles, signInAs: string | null) {
  test.describe(`every screen: ${role}`, () => {
    let page: Page;
    let setup = NO_SETUP;

    // A screen is two page loads and three axe runs; the heaviest (playground, dashboard) take a while on 2 busy cores.
    test.describe.configure({ timeout: 120_000 });

    test.beforeAll(async ({ browser }: { browser: Browser }, testInfo) => {
      testInfo.setTimeout(120_000);
      page = await browser.newPage({ viewport: LAPTOP });
      if (!signInAs) return;
      await signInAndLand(page, signInAs, /\/(home|chat)$/);
      if (role === 'user') setup = await setUpUser(page);
      if (role === 'superuser') setup = await setUpSuperuser(page);
    });
    test.afterAll(async () => {
      if (role === 'user' && setup.conversationId) {
        const token = await signedInToken(page);
        await page.request.delete(`/api/v1/chat/conversations/${encodeURIComponent(setup.conversationId)}`, {
          headers: { Authorization: `Bearer ${token}` },
        });
      }
      await page?.close();
    });

    for (const screen of roles[role]) {
      test(screen.name, async () => {
        // Laid out for a laptop (or the phone, for what only a phone has), checked in light and dark; then the same
        // screen, modal still open, narrowed to a phone: the layout follows media queries, no reload needed.
        await page.setViewportSize(screen.phoneOnly ? PHONE : LAPTOP);
        await show(page, screen, setup);
        await axeLightAndDark(page);
        await page.setViewportSize(PHONE);
        await settleLayout(page);
        await expectNoHorizontalOverflow(page);
      });
    }
  });
}

sweep('signed out', null);
sweep('user', accounts.user);
sweep('admin', accounts.admin);
sweep('superuser', accounts.superuser);
