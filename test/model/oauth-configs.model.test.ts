import { describe, it } from 'vitest';
import { expect } from './support/expect';
import { createActor, type EventFrom, type EventObject, type SnapshotFrom } from 'xstate';
import type { OAuthConfig } from '../../contract/oauth-configs';
import {
  OAUTH_CLIENT_ID_REQUIRED,
  OAUTH_CLIENT_SECRET_REQUIRED,
  OAUTH_CREATE_FAILED,
  OAUTH_CREATED,
  OAUTH_DELETE_FAILED,
  OAUTH_DELETED,
  OAUTH_FETCH_FAILED,
  OAUTH_KEY_MISSING,
  OAUTH_PROVIDER_REQUIRED,
  OAUTH_UPDATE_FAILED,
  OAUTH_UPDATED,
} from '../../contract/oauth-configs-constants';
import { loadFailure } from '../../machines/load-failure';
import { notice, type Notice } from '../../machines/notice';
import {
  oauthConfigsInput,
  oauthConfigsListInput,
  oauthDraftErrors,
  oauthEvents,
  saveOAuthRequestOf,
  type OAuthDeletion,
  type OAuthDraft,
  type SaveOAuthRequest,
} from '../../machines/oauth-configs.machine';
import { recordEditorMachine } from '../../machines/record-editor.machine';
import { actOutcomes, recordEditorFakes } from './support/record-editor-fakes';
import { runModelTest } from './support/run-model';

/** The OAuth Configurations modal's machine: the record editor with the OAuth input. */
const oauthMachine = recordEditorMachine;
type Snap = SnapshotFrom<typeof oauthMachine>;
type Ev = EventFrom<typeof oauthMachine>;
type Told = EventObject & Record<string, unknown>;
const draftOf = (s: Snap) => s.context.draft as OAuthDraft | null;
const targetOf = (s: Snap) => s.context.target as OAuthDeletion | null;

const config: OAuthConfig = {
  id: 'o1',
  client_id: 'c1',
  provider: 'microsoft',
  tenant_id: 'tenant-1',
  provider_client_id: 'app-1',
  provider_client_secret_masked: '••••••••wxyz',
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
};
const serverCopy = { ...config, provider_client_secret_masked: '••••••••abcd' };
const googleConfig: OAuthConfig = { ...config, id: 'o2', provider: 'google', tenant_id: null, provider_client_id: 'g-app' };

// As src/lib/answer-status.ts rejects: the server's sentence and the HTTP status (0: no answer).
const noKey = Object.assign(loadFailure('HTTP 503', OAUTH_KEY_MISSING), { status: 503 });
const dropped = Object.assign(loadFailure('Network Error', null), { status: 0 });
const gone = Object.assign(loadFailure('HTTP 404', 'OAuth configuration not found'), { status: 404 });

const fakes = recordEditorFakes();
const { rec } = fakes;
const saves = () => rec.saves as SaveOAuthRequest[];
const deletes = () => rec.acts as unknown as OAuthDeletion[];
let prev: Snap | null = null;

function eventsFor(s: Snap): Ev[] {
  const always: Ev[] = [oauthEvents.retry(), notice('error', OAUTH_FETCH_FAILED)];
  if (s.matches('browsing')) {
    return [...always, oauthEvents.add(), oauthEvents.edit(config), oauthEvents.remove(config), oauthEvents.remove(googleConfig), { type: 'act.confirm' }];
  }
  if (s.matches('editing')) {
    return [
      ...always,
      oauthEvents.pickProvider('google'),
      oauthEvents.typeClientId('  app-2  '),
      oauthEvents.typeClientId(''),
      oauthEvents.typeTenantId('tenant-2'),
      oauthEvents.typeSecret('s3cret-value'),
      oauthEvents.editSecret(),
      oauthEvents.cancelSecretEdit(),
      { type: 'form.submit' },
      { type: 'form.cancel' },
      oauthEvents.remove(config),
    ];
  }
  if (s.matches('saving')) {
    return [
      { type: 'xstate.done.actor.save', output: serverCopy, actorId: 'save' },
      { type: 'xstate.error.actor.save', error: noKey, actorId: 'save' },
      { type: 'xstate.error.actor.save', error: dropped, actorId: 'save' },
      { type: 'form.cancel' },
    ] as never[];
  }
  if (s.matches('confirming')) return [...always, { type: 'act.confirm' }, { type: 'act.cancel' }, oauthEvents.add()];
  // The Google one was deleted in another tab meanwhile (404); the Microsoft one's delete fails.
  return [...actOutcomes({ id: targetOf(s)!.configId }, targetOf(s)!.provider === 'google' ? gone : dropped), { type: 'act.cancel' }];
}

function checkStep(s: Snap, e: { type: string } | null) {
  const p = prev;
  const event = e as ({ type: string; error?: { status?: number; serverDetail?: string | null } } & Record<string, unknown>) | null;
  const draft = draftOf(s);

  expect(rec.listInputs).toEqual([{ ...oauthConfigsListInput, parent: expect.anything() }]);
  expect(s.hasTag('busy')).toBe(s.matches('saving') || s.matches('acting'));
  // The views: the form while a draft is open, the list otherwise.
  expect(draft !== null).toBe(s.matches('editing') || s.matches('saving'));
  expect(targetOf(s) !== null).toBe(s.matches('confirming') || s.matches('acting'));
  if (draft) {
    // Adding always types a secret; the stored one is never in the draft, only its mask.
    if (draft.mode === 'add') expect(draft.editingSecret).toBe(true);
    else expect(draft.maskedSecret).toBe(config.provider_client_secret_masked);
    if (!draft.editingSecret) expect(draft.secret).toBe('');
  }
  if (s.matches('saving') && !p?.matches('saving')) expect(saves().at(-1)).toEqual(saveOAuthRequestOf(draft!));
  if (s.matches('acting') && !p?.matches('acting')) expect(deletes().at(-1)).toEqual(targetOf(s));
  // Nothing is deleted before the confirmation.
  if (s.matches('confirming') && event?.type === 'record.act') expect(deletes()).toEqual([]);

  const list: Told[] = [];
  const out: Notice[] = [];
  switch (event?.type) {
    case 'list.retry':
      list.push({ type: 'pager.load' });
      break;
    case 'notice.show':
      out.push(notice('error', OAUTH_FETCH_FAILED));
      break;
    case 'record.change': {
      const patch = event.patch as Partial<OAuthDraft>;
      const was = draftOf(p!)!;
      // While the secret of a stored one is edited, provider, client ID and tenant ID do not change.
      const locked = was.mode === 'edit' && was.editingSecret;
      if ('provider' in patch) expect(draft!.provider).toBe(locked ? was.provider : patch.provider);
      if ('clientId' in patch) expect(draft!.clientId).toBe(locked ? was.clientId : patch.clientId);
      if ('tenantId' in patch) expect(draft!.tenantId).toBe(locked ? was.tenantId : patch.tenantId);
      if ('editingSecret' in patch) expect(draft!.editingSecret).toBe(was.mode === 'add' ? true : patch.editingSecret);
      // A field typed in clears its sentence.
      for (const field of Object.keys(patch)) expect(s.context.errors[field]).toBeUndefined();
      break;
    }
    case 'form.submit':
      if (p!.matches('editing')) {
        const errors = oauthDraftErrors(draftOf(p!)!);
        expect(s.matches('saving')).toBe(errors === null);
        if (errors) expect(s.context.errors).toEqual(errors);
      }
      break;
    case 'xstate.done.actor.save':
      if (draftOf(p!)!.mode === 'add') {
        list.push({ type: 'pager.refetch' });
        out.push(notice('success', OAUTH_CREATED));
      } else {
        list.push({ type: 'item.upsert', item: serverCopy, insert: false });
        out.push(notice('success', OAUTH_UPDATED));
      }
      break;
    case 'xstate.error.actor.save': {
      const failed = draftOf(p!)!.mode === 'add' ? OAUTH_CREATE_FAILED : OAUTH_UPDATE_FAILED;
      // The server's sentence (the 503's: no OAUTH_SECRET_KEY), else the spec's; the form keeps what was typed.
      out.push(notice('error', event.error?.serverDetail ?? failed));
      expect(draft).toEqual(draftOf(p!));
      break;
    }
    case 'xstate.done.actor.act':
      list.push({ type: 'pager.refetch' });
      out.push(notice('success', OAUTH_DELETED));
      break;
    case 'xstate.error.actor.act':
      // Gone already (deleted in another tab): the same outcome.
      if (event.error?.status === 404) {
        list.push({ type: 'pager.refetch' });
        out.push(notice('success', OAUTH_DELETED));
      } else out.push(notice('error', OAUTH_DELETE_FAILED));
      expect(s.matches('browsing')).toBe(true);
      break;
  }
  fakes.expectStep(list, out);
  prev = s;
}

const draftKey = (s: Snap) => {
  const d = draftOf(s);
  return d ? [d.mode, d.provider, d.editingSecret, d.clientId.trim() !== '', d.secret !== '', Object.keys(s.context.errors).sort()] : null;
};

runModelTest({
  name: 'oauth-configs',
  machine: oauthMachine,
  testMachine: fakes.testMachine,
  onActor: (actor) => {
    fakes.reset(actor);
    prev = null;
  },
  inputs: [oauthConfigsInput],
  events: eventsFor,
  key: (s) => JSON.stringify([s.value, draftKey(s), targetOf(s)?.provider ?? null]),
  simpleKey: (s) => JSON.stringify([s.value, draftOf(s)?.mode ?? null, draftOf(s)?.editingSecret ?? null]),
  edgeKeys: true,
  // The modal has no search, pages or filter; every delete is asked first and reads the list again, a failed one
  // closes the question; an add reads the list again and an edit puts the server's copy in place: the record
  // editor's own model test takes the rest.
  notTakenByThisInput: {
    transitions: [
      'recordEditor --list.search#0--> (self)',
      'recordEditor --list.goTo#1--> (self)',
      'recordEditor --list.filter#2--> (self)',
      'recordEditor.browsing --record.act#2--> recordEditor.acting',
      'recordEditor.saving --xstate.done.actor.save#0--> recordEditor.browsing',
      'recordEditor.acting --xstate.done.actor.act#0--> recordEditor.browsing',
      'recordEditor.acting --xstate.done.actor.act#1--> recordEditor.browsing',
      'recordEditor.acting --xstate.error.actor.act#4--> recordEditor.confirming',
    ],
  },
  checks: { browsing: checkStep, confirming: checkStep, editing: checkStep, saving: checkStep, acting: checkStep },
});

describe('oauth configs (examples)', () => {
  it('asks for provider, client ID and secret on add, and sends tenant_id null when empty', () => {
    const actor = createActor(fakes.testMachine(), { input: oauthConfigsInput }).start();
    fakes.reset(actor);
    actor.send(oauthEvents.add());
    actor.send({ type: 'form.submit' });
    expect(actor.getSnapshot().context.errors).toEqual({
      provider: OAUTH_PROVIDER_REQUIRED,
      clientId: OAUTH_CLIENT_ID_REQUIRED,
      secret: OAUTH_CLIENT_SECRET_REQUIRED,
    });
    expect(saves()).toEqual([]);
    actor.send(oauthEvents.pickProvider('google'));
    actor.send(oauthEvents.typeClientId(' app-9 '));
    actor.send(oauthEvents.typeSecret('top secret'));
    actor.send({ type: 'form.submit' });
    expect(saves()).toEqual([
      { kind: 'create', body: { provider: 'google', tenant_id: null, provider_client_id: 'app-9', provider_client_secret: 'top secret' } },
    ]);
    actor.stop();
  });

  it('on edit sends only non-empty fields, the secret only when edited, and locks the fields meanwhile', () => {
    const actor = createActor(fakes.testMachine(), { input: oauthConfigsInput }).start();
    fakes.reset(actor);
    actor.send(oauthEvents.edit({ ...config, tenant_id: null }));
    actor.send({ type: 'form.submit' });
    expect(saves().at(-1)).toEqual({ kind: 'update', configId: 'o1', body: { provider: 'microsoft', provider_client_id: 'app-1' } });
    actor.send({ type: 'xstate.done.actor.save', output: serverCopy, actorId: 'save' } as never);

    actor.send(oauthEvents.edit(config));
    actor.send(oauthEvents.editSecret());
    actor.send(oauthEvents.typeClientId('ignored'));
    expect(draftOf(actor.getSnapshot())!.clientId).toBe('app-1');
    actor.send({ type: 'form.submit' });
    // Editing the secret makes it required.
    expect(actor.getSnapshot().context.errors).toEqual({ secret: OAUTH_CLIENT_SECRET_REQUIRED });
    actor.send(oauthEvents.typeSecret('new-secret'));
    actor.send({ type: 'form.submit' });
    expect(saves().at(-1)).toEqual({
      kind: 'update',
      configId: 'o1',
      body: { provider: 'microsoft', tenant_id: 'tenant-1', provider_client_id: 'app-1', provider_client_secret: 'new-secret' },
    });
    actor.send({ type: 'xstate.error.actor.save', error: noKey, actorId: 'save' } as never);
    // Cancelling the secret edit drops what was typed; the stored secret is kept.
    actor.send(oauthEvents.cancelSecretEdit());
    expect(draftOf(actor.getSnapshot())).toMatchObject({ editingSecret: false, secret: '' });
    actor.send({ type: 'form.submit' });
    expect(saves().at(-1)).toEqual({ kind: 'update', configId: 'o1', body: { provider: 'microsoft', tenant_id: 'tenant-1', provider_client_id: 'app-1' } });
    actor.stop();
  });

  it('asks before deleting and sends nothing when cancelled', () => {
    const actor = createActor(fakes.testMachine(), { input: oauthConfigsInput }).start();
    fakes.reset(actor);
    actor.send(oauthEvents.remove(config));
    expect(actor.getSnapshot().value).toBe('confirming');
    actor.send({ type: 'act.cancel' });
    expect(deletes()).toEqual([]);
    actor.send(oauthEvents.remove(config));
    actor.send({ type: 'act.confirm' });
    expect(deletes()).toEqual([{ configId: 'o1', provider: 'microsoft' }]);
    actor.stop();
  });
});
