import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import type { AnyStateMachine } from 'xstate';
import { generatePaths, planPaths, type ModelPath, type ModelSpec } from '../../model/support/model-paths';
import { accounts, isLocalServer, password, tokenBeforeLoad } from '../helpers/accounts';
import { withinRateLimits } from '../helpers/rate-limits';
import { CHAT_TOOLS_PATH } from '../../../contract/chat-tools';

/** A machine event as generated; payloads only matter to the model, the browser step reads the type (and ids). */
export type Step = { type: string } & Record<string, unknown>;
/**
 * A generated path as a browser step reads it: delayed (`xstate.after.*`) and actor (`xstate.done.actor.*`) events
 * are not in a machine's event union, so the steps see plain `Step`s.
 */
export interface StepPath<I> {
  input: I;
  events: Step[];
  description: string;
}
/** The paths for the browser (see StepPath); `coverageOf` still takes them as the machine's. */
export const asSteps = <I>(paths: unknown): StepPath<I>[] => paths as StepPath<I>[];

/**
 * Generated paths, longest only: a path that is the start of a longer one adds no check of its own in a browser
 * (each browser test pays a sign-in and a page load), so only the longer one runs.
 */
export function maximalPaths<M extends AnyStateMachine>(spec: ModelSpec<M>): ModelPath<M>[] {
  const all = generatePaths(spec);
  const same = (a: { type: string }, b: { type: string }) => JSON.stringify(a) === JSON.stringify(b);
  return all.filter((p) => !all.some((q) => q !== p && q.events.length > p.events.length && p.events.every((e, i) => same(q.events[i]!, e))));
}

/**
 * The fewest of `paths` (greedily) that reach every state and transition the whole set reaches: in a browser each
 * path costs a sign-in and real replies, and a path that takes no transition the others miss checks nothing new
 * of the machine. The model tests' own plan (planPaths), in the order it picked them (several models chain the
 * paths in this order, so it decides their browser tests); coverage is printed from what is
 * kept, so nothing is claimed that does not run. A greedy pick of its own here, one coverage replay per path, kept the
 * same paths and took 3.6 s of its 29 calls' import time against planPaths' 1.0 s, in the runner and every worker.
 */
export const coveringPaths = <M extends AnyStateMachine>(machine: M, paths: ModelPath<M>[]): ModelPath<M>[] => planPaths(machine, paths).picked;

/**
 * Paths joined end to start wherever `join` can (it gives the longer path, or null), until none joins: for machines
 * whose paths each end after one event that leaves the state as it was, so that one browser test runs several.
 */
export function chainPaths<P>(paths: P[], join: (first: P, then: P) => P | null): P[] {
  const chains: P[] = [];
  const rest = [...paths];
  while (rest.length) {
    let chain = rest.shift()!;
    for (let grew = true; grew; ) {
      grew = false;
      for (const [n, p] of rest.entries()) {
        const longer = join(chain, p) ?? join(p, chain);
        if (!longer) continue;
        chain = longer;
        rest.splice(n, 1);
        grew = true;
        break;
      }
    }
    chains.push(chain);
  }
  return chains;
}

/** 'loggedIn.ready' for { loggedIn: 'ready' }: one name per (nested) state value. */
export const valueName = (value: unknown): string =>
  typeof value === 'string' ? value : Object.entries(value as Record<string, unknown>).map(([k, v]) => `${k}.${valueName(v)}`)[0]!;

/** The server's error envelope, as a route stub answers it. */
export const errorEnvelope = (status: number, detail: string) => ({
  status,
  contentType: 'application/json',
  body: JSON.stringify({ status: 'error', detail, message: detail }),
});

// Every test asks with its own unique words, so parallel tests of the same account never find each other's
// conversations.
export const unique = (label: string) => `${label} ${Math.random().toString(36).slice(2, 8)}`;

export const messageBox = (page: Page) => page.getByRole('textbox', { name: 'Message' });
export const conversationNav = (page: Page) => page.getByRole('navigation', { name: 'Conversations' });
export const assistantMessages = (page: Page) => page.getByRole('article', { name: 'Assistant message' });
export const userMessages = (page: Page) => page.getByRole('article', { name: 'Your message' });
/** The conversation's link in the list, whatever its title is at the moment (the list shows titles, the URL the id). */
export const conversationLink = (page: Page, id: string) =>
  conversationNav(page).getByRole('link').and(page.locator(`[href="/chat?id=${encodeURIComponent(id)}"]`));

/**
 * The conversation's link, brought into the list first: other workers create conversations for the same account
 * meanwhile, which can push this one off the first page, so load more until it shows, as a person would.
 */
export async function revealConversationLink(page: Page, id: string) {
  const link = conversationLink(page, id);
  await expect(async () => {
    if (await link.isVisible()) return;
    await conversationNav(page).getByRole('button', { name: 'Load more' }).click({ timeout: 2_000 });
    await expect(link).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  return link;
}

/** Asks in the open chat (Enter sends, as a person does). */
export async function ask(page: Page, text: string) {
  await messageBox(page).fill(text);
  await messageBox(page).press('Enter');
}

/** Waits for the whole reply (a slow shared machine or a real model can take long) and Send to be back. */
export async function expectReplyComplete(page: Page) {
  await expect(assistantMessages(page).last()).not.toHaveAttribute('aria-busy', 'true', { timeout: 60_000 });
  await expect(assistantMessages(page).last()).not.toBeEmpty();
}

/** The id of the conversation the chat screen shows (its `?id=`), or null on the new-chat screen. */
export const openConversationId = (page: Page) => new URL(page.url()).searchParams.get('id');

/** Asks on the new-chat screen and waits for the whole answer; returns the new conversation's id. */
export async function startConversation(page: Page, text: string) {
  await page.goto('/chat');
  await expect(page.getByRole('heading', { name: 'How can I help you today?' })).toBeVisible();
  await ask(page, text);
  await expect(page).toHaveURL(/\/chat\?id=/);
  await expectReplyComplete(page);
  return openConversationId(page)!;
}

/** The e2e user's access token, for setting a path up through the API. */
export function apiToken(request: APIRequestContext) {
  return apiTokenOf(request, accounts.user);
}

/** The access token of one of the e2e accounts. */
export async function apiTokenOf(request: APIRequestContext, email: string) {
  const response = await request.post('/api/v1/auth/login', { data: { email, password } });
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { data: { access_token: string } }).data.access_token;
}

/**
 * A conversation made as the chat makes it (POST /chat/messages, the reply streamed to its end), or a question asked
 * in `conversationId`; returns the conversation's id.
 */
export async function createConversationByApi(request: APIRequestContext, token: string, message: string, conversationId: string | null = null) {
  const response = await withinRateLimits(() =>
    request.post('/api/v1/chat/messages', {
      headers: { Authorization: `Bearer ${token}` },
      data: { conversation_id: conversationId, message },
      timeout: 60_000,
    }),
  );
  expect(response.ok()).toBe(true);
  return /"conversation_id":"([^"]+)"/.exec(await response.text())![1]!;
}

/**
 * The access token of the person signed in on `page`, for setting a path up through the API as them: the app's
 * own once it has loaded (it may have refreshed it), before that the one signInByApi got.
 */
export async function signedInToken(page: Page): Promise<string> {
  const before = page.url() === 'about:blank' ? tokenBeforeLoad(page) : undefined;
  if (before) return before;
  const token = await page.evaluate(() => localStorage.getItem('token'));
  expect(token).toBeTruthy();
  return token!;
}

/**
 * Skips a path that browses on a deployment without a web search (GET /chat/tools says so; it offers Web Browsing
 * disabled, with its reason). Locally the slow web is always there.
 */
export async function skipWithoutWebSearch(page: Page): Promise<void> {
  if (isLocalServer) return;
  const res = await page.request.get(`/api/v1${CHAT_TOOLS_PATH}`, { headers: { Authorization: `Bearer ${await signedInToken(page)}` } });
  expect(res.ok(), await res.text()).toBe(true);
  const available = ((await res.json()) as { data: { web_browsing: { available: boolean } } }).data.web_browsing.available;
  test.skip(!available, 'this deployment has no web search (SEARCH_PROVIDER): it offers Web Browsing disabled with its reason, so paths that browse are skipped');
}
