import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { paths } from '../../contract/api-paths';
import { messageOnly, successEnvelope } from '../../contract/envelope';
import { idParams } from '../../contract/fields';
import { promptEntry, promptList, promptListQuery, promptRequest } from '../../contract/prompt-library';
import { PROMPT_DELETED, PROMPT_SAVED, PROMPT_UPDATED } from '../../contract/prompt-library-constants';
import type { AppContext } from '../context';
import { currentUser, type AuthGuards } from '../http/auth';
import { ok } from '../http/reply';
import { errorResponses } from '../http/route-schema';
import { createPrompt, deletePrompt, getPrompt, listPrompts, updatePrompt } from '../services/chat/prompt-library';

const SAVE_LIMITS =
  'Saves (new prompts and edits) are limited to PROMPT_RATE_LIMIT_PER_USER per person per minute (429 with ' +
  "Retry-After). 413 (code prompt_library_full) when the save would take the person's library past " +
  'PROMPT_LIBRARY_MAX_PROMPTS prompts (new prompts only) or PROMPT_LIBRARY_MAX_CHARS characters in all.';

export async function promptLibraryRoutes(app: FastifyInstance, ctx: AppContext, guards: AuthGuards): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const auth = guards.requireAuth;
  const tags = ['prompt library'];

  api.get(
    paths.promptLibrary,
    {
      onRequest: auth,
      schema: {
        summary: 'My saved prompts, last changed first',
        tags,
        querystring: promptListQuery,
        response: { 200: successEnvelope(promptList), ...errorResponses(400) },
      },
    },
    async (request) => {
      const { page, limit, tags: tagFilter, search } = request.query;
      return ok(await listPrompts(ctx.db, currentUser(request).id, { page, limit, tags: tagFilter, search }));
    },
  );

  api.get(
    paths.promptLibraryEntry,
    {
      onRequest: auth,
      schema: {
        summary: 'One of my saved prompts',
        tags,
        params: idParams,
        response: { 200: successEnvelope(promptEntry), ...errorResponses(404) },
      },
    },
    async (request) => ok(await getPrompt(ctx.db, currentUser(request).id, request.params.id)),
  );

  api.post(
    paths.promptLibrary,
    {
      onRequest: auth,
      schema: {
        summary: 'Save a prompt with its tags',
        description: SAVE_LIMITS,
        tags,
        body: promptRequest,
        response: { 200: successEnvelope(promptEntry), ...errorResponses(400, 413, 429) },
      },
    },
    async (request) => ok(await createPrompt(ctx, currentUser(request).id, request.body), PROMPT_SAVED),
  );

  api.put(
    paths.promptLibraryEntry,
    {
      onRequest: auth,
      schema: {
        summary: 'Edit a saved prompt (its text and tags both replaced)',
        description: SAVE_LIMITS,
        tags,
        params: idParams,
        body: promptRequest,
        response: { 200: successEnvelope(promptEntry), ...errorResponses(400, 404, 413, 429) },
      },
    },
    async (request) => ok(await updatePrompt(ctx, currentUser(request).id, request.params.id, request.body), PROMPT_UPDATED),
  );

  api.delete(
    paths.promptLibraryEntry,
    {
      onRequest: auth,
      schema: {
        summary: 'Delete a saved prompt',
        tags,
        params: idParams,
        response: { 200: successEnvelope(messageOnly), ...errorResponses(404) },
      },
    },
    async (request) => {
      await deletePrompt(ctx.db, currentUser(request).id, request.params.id);
      return ok({ message: PROMPT_DELETED }, PROMPT_DELETED);
    },
  );
}
