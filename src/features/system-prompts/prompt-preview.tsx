import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { SystemPrompt } from '../../../contract/system-prompts';
import type { SystemPromptsMachine } from '../../../machines/system-prompts.machine';
import { shallowEqual } from '../../lib/shallow-equal';
import { Card } from '../../ui/card';
import { RetryAlert } from '../../ui/retry-alert';
import { Select } from '../../ui/select';
import { Spinner } from '../../ui/spinner';
import { SYSTEM_PROMPT_PREVIEW_FAILED } from '../../../contract/system-prompts-constants';
import { keyOfScope, scopeItems, scopeOfKey } from './scope-choices';

/**
 * The composed prompt's preview: what a person of the chosen client (or of no client) gets as the system prompt of
 * a reply now, as the server composes it. A thin view of the page machine's preview part.
 */
export function PromptPreview({ page, prompts }: { page: ActorRefFrom<SystemPromptsMachine>; prompts: SystemPrompt[] }) {
  const state = useSelector(
    page,
    (s) => ({
      clientId: s.context.previewClientId,
      preview: s.context.preview,
      clients: s.context.clients,
      loading: s.hasTag('previewing'),
      failed: s.matches('failed'),
    }),
    shallowEqual,
  );
  const active = state.preview?.active_prompt_id ? prompts.find((p) => p.id === state.preview!.active_prompt_id) : null;

  return (
    <Card role="region" className="space-y-4" aria-labelledby="prompt-preview-title">
      <div className="space-y-1">
        <h2 id="prompt-preview-title" className="text-lg font-semibold text-gray-900 dark:text-gray-50">
          Composed prompt preview
        </h2>
        <p className="text-sm text-gray-600 dark:text-gray-300">
          The instructions a reply gets now: the base prompt, the active system prompt and the organisation's global policy.
        </p>
      </div>
      <Select
        label="Preview for"
        items={scopeItems(state.clients)}
        selectedKey={keyOfScope(state.clientId)}
        onSelectionChange={(key) => page.send({ type: 'preview.choose', clientId: scopeOfKey(key) })}
        isDisabled={state.clients === null}
      />
      {state.failed && <RetryAlert message={SYSTEM_PROMPT_PREVIEW_FAILED} onRetry={() => page.send({ type: 'preview.retry' })} />}
      {state.preview && (
        <p className="text-sm text-gray-700 dark:text-gray-200" aria-live="polite">
          {state.preview.active_prompt_id ? (
            <>
              Active system prompt in it: <strong>{active?.name ?? 'one of yours'}</strong>
            </>
          ) : (
            'No system prompt of yours is active for these people.'
          )}
        </p>
      )}
      <div className="relative">
        {state.loading && (
          <div className="absolute top-2 right-2">
            <Spinner label="Loading preview" className="size-4" />
          </div>
        )}
        {state.preview ? (
          <pre
            aria-label="Composed system prompt"
            tabIndex={0}
            className="max-h-[32rem] overflow-auto rounded-xl border border-gray-200 bg-gray-50 p-4 font-mono text-xs leading-5 break-words whitespace-pre-wrap text-gray-800 dark:border-gray-700 dark:bg-gray-950 dark:text-gray-100"
          >
            {state.preview.system_prompt}
          </pre>
        ) : (
          !state.failed && <div className="h-32 rounded-xl border border-dashed border-gray-300 dark:border-gray-600" aria-hidden />
        )}
      </div>
    </Card>
  );
}
