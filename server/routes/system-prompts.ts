import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { paths } from '../../contract/api-paths';
import { successEnvelope } from '../../contract/envelope';
import { idParams } from '../../contract/fields';
import {
  createSystemPromptRequest,
  deletedSystemPrompt,
  systemPrompt,
  systemPromptList,
  systemPromptPreview,
  systemPromptPreviewQuery,
  updateSystemPromptRequest,
} from '../../contract/system-prompts';
import {
  SYSTEM_PROMPT_ACTIVATED,
  SYSTEM_PROMPT_CREATED,
  SYSTEM_PROMPT_DEACTIVATED,
  SYSTEM_PROMPT_DELETED,
  SYSTEM_PROMPT_UPDATED,
} from '../../contract/system-prompts-constants';
import type { AppContext } from '../context';
import type { AuthGuards } from '../http/auth';
import { ok } from '../http/reply';
import { errorResponses } from '../http/route-schema';
import {
  activatePrompt,
  createPrompt,
  deactivatePrompt,
  listPrompts,
  previewPrompt,
  readPrompt,
  removePrompt,
  updatePrompt,
} from '../services/organisation/system-prompts';

const SCOPES =
  'One prompt is active for everyone (client_id null) and at most one per client, which replaces it for that ' +
  "client's people; it joins every reply's system prompt after the base prompt and before the organisation's global policy.";

export async function systemPromptRoutes(app: FastifyInstance, ctx: AppContext, guards: AuthGuards): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const superuserOnly = guards.requireRole('superuser');
  const tags = ['system prompts'];

  api.get(
    paths.systemPrompts,
    {
      onRequest: superuserOnly,
      schema: {
        summary: 'Every system prompt',
        description: `Superuser only. Everyone's first, then by client; the active one first in each. ${SCOPES}`,
        tags,
        response: { 200: successEnvelope(systemPromptList) },
      },
    },
    async () => ok(await listPrompts(ctx.db)),
  );

  api.post(
    paths.systemPrompts,
    {
      onRequest: superuserOnly,
      schema: {
        summary: 'Add a system prompt',
        description: 'Superuser only. Created inactive. 400 when `client_id` names no client.',
        tags,
        body: createSystemPromptRequest,
        response: { 200: successEnvelope(systemPrompt), ...errorResponses(400) },
      },
    },
    async (request) => ok(await createPrompt(ctx.db, request.body), SYSTEM_PROMPT_CREATED),
  );

  api.get(
    paths.systemPromptPreview,
    {
      onRequest: superuserOnly,
      schema: {
        summary: 'The composed system prompt, as a person of a client gets it',
        description:
          "Superuser only, for the editor's preview: the base prompt, the active system prompt of the client (else " +
          "everyone's) and the client's global policy, as a reply would get them now. 404 for an unknown client.",
        tags,
        querystring: systemPromptPreviewQuery,
        response: { 200: successEnvelope(systemPromptPreview), ...errorResponses(400, 404) },
      },
    },
    async (request) => ok(await previewPrompt(ctx.db, request.query.client_id)),
  );

  api.get(
    paths.systemPrompt,
    {
      onRequest: superuserOnly,
      schema: {
        summary: 'One system prompt',
        description: 'Superuser only.',
        tags,
        params: idParams,
        response: { 200: successEnvelope(systemPrompt), ...errorResponses(400, 404) },
      },
    },
    async (request) => ok(await readPrompt(ctx.db, request.params.id)),
  );

  api.put(
    paths.systemPrompt,
    {
      onRequest: superuserOnly,
      schema: {
        summary: 'Change a system prompt',
        description:
          'Superuser only. A field left out keeps its value; an active prompt changed in place is used from the next reply ' +
          'on. Moving it to another client (or to everyone) deactivates it.',
        tags,
        params: idParams,
        body: updateSystemPromptRequest,
        response: { 200: successEnvelope(systemPrompt), ...errorResponses(400, 404) },
      },
    },
    async (request) => ok(await updatePrompt(ctx.db, request.params.id, request.body), SYSTEM_PROMPT_UPDATED),
  );

  api.delete(
    paths.systemPrompt,
    {
      onRequest: superuserOnly,
      schema: {
        summary: 'Delete a system prompt',
        description: 'Superuser only. Deleting the active one leaves its scope without one.',
        tags,
        params: idParams,
        response: { 200: successEnvelope(deletedSystemPrompt), ...errorResponses(400, 404) },
      },
    },
    async (request) => ok(await removePrompt(ctx.db, request.params.id), SYSTEM_PROMPT_DELETED),
  );

  api.post(
    paths.systemPromptActivate,
    {
      onRequest: superuserOnly,
      schema: {
        summary: 'Make a system prompt the active one of its scope',
        description: `Superuser only. The prompt active in the same scope before is deactivated. ${SCOPES}`,
        tags,
        params: idParams,
        response: { 200: successEnvelope(systemPrompt), ...errorResponses(400, 404, 409) },
      },
    },
    async (request) => ok(await activatePrompt(ctx.db, request.params.id), SYSTEM_PROMPT_ACTIVATED),
  );

  api.post(
    paths.systemPromptDeactivate,
    {
      onRequest: superuserOnly,
      schema: {
        summary: 'Deactivate a system prompt',
        description: "Superuser only. A client's people then get everyone's active prompt again; for everyone, none.",
        tags,
        params: idParams,
        response: { 200: successEnvelope(systemPrompt), ...errorResponses(400, 404) },
      },
    },
    async (request) => ok(await deactivatePrompt(ctx.db, request.params.id), SYSTEM_PROMPT_DEACTIVATED),
  );
}
