import { useRef } from 'react';
import { useSelector } from '@xstate/react';
import { CheckCircle2 } from 'lucide-react';
import type { ActorRefFrom } from 'xstate';
import { STAFF_EMAIL_REGISTERED } from '../../../contract/contact-form-constants';
import { canOfferSubmit, isStaffAddress, type ContactFormMachine } from '../../../machines/contact-form.machine';
import { hearAboutUsOptions, type ContactFields } from '../../../shared/contact-form-rules';
import { shallowEqual } from '../../lib/shallow-equal';
import { Button, ButtonLink } from '../../ui/button';
import { ErrorBanner } from '../../ui/error-banner';
import { Modal } from '../../ui/modal';
import { Select } from '../../ui/select';
import { Spinner } from '../../ui/spinner';
import { TextField } from '../../ui/text-field';
import { useRecaptcha } from './use-recaptcha';

const FORM_ID = 'contact-form';
const HEARD = hearAboutUsOptions.map((o) => ({ id: o.value, label: o.label }));

/**
 * 'Let's Register!': a thin view of machines/contact-form.machine.ts. Loaded when the visitor first opens it (the
 * landing page itself carries no form code), it renders the reCAPTCHA widget once the form's settings are known.
 */
export function ContactModal({ form }: { form: ActorRefFrom<ContactFormMachine> }) {
  const state = useSelector(
    form,
    (s) => ({
      open: !s.matches('closed'),
      loading: s.matches('loading'),
      submitting: s.matches('submitting'),
      sent: s.matches('sent'),
      context: s.context,
      staff: isStaffAddress(s.context),
      offerSubmit: canOfferSubmit(s.context),
    }),
    shallowEqual,
  );
  const { context } = state;
  const close = () => form.send({ type: 'contact.close' });
  const change = (fields: Partial<ContactFields>) => form.send({ type: 'contact.change', fields });
  const widget = useRef<HTMLDivElement>(null);
  const showWidget = Boolean(context.settings?.recaptcha_site_key) && !state.staff && !state.sent && !state.loading;
  useRecaptcha(widget, showWidget ? (context.settings?.recaptcha_site_key ?? null) : null, context.settings?.recaptcha_script_url ?? '', context.recaptchaResets, {
    verified: (token) => form.send({ type: 'recaptcha.verified', token }),
    expired: () => form.send({ type: 'recaptcha.expired' }),
    failed: () => form.send({ type: 'recaptcha.failed' }),
    unavailable: () => form.send({ type: 'recaptcha.unavailable' }),
  });

  return (
    <Modal
      isOpen={state.open}
      onOpenChange={(open) => !open && !state.submitting && close()}
      isDismissable={!state.submitting}
      title="Let's Register!"
      size="lg"
      footer={
        state.sent ? (
          <Button variant="primary" onPress={close}>
            Close
          </Button>
        ) : state.staff ? (
          <ButtonLink variant="primary" href="/login">
            Go to Login
          </ButtonLink>
        ) : (
          <>
            <Button isDisabled={state.submitting} onPress={close}>
              Cancel
            </Button>
            <Button variant="primary" type="submit" form={FORM_ID} isDisabled={!state.offerSubmit || state.loading} isPending={state.submitting}>
              {state.submitting ? 'Submitting...' : 'Submit'}
            </Button>
          </>
        )
      }
    >
      {state.sent ? (
        <div role="status" className="flex flex-col items-center gap-3 py-6 text-center">
          <CheckCircle2 aria-hidden className="size-10 text-green-700 dark:text-green-400" />
          <p className="text-base text-gray-900 dark:text-gray-100">{context.sentMessage}</p>
        </div>
      ) : (
        <form
          id={FORM_ID}
          className="space-y-4"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            form.send({ type: 'contact.submit' });
          }}
        >
          <p className="text-sm text-gray-700 dark:text-gray-300">Tell us how to reach you and our team will set Tanya up for your organisation.</p>
          {context.error && <ErrorBanner message={context.error} />}
          <TextField label="Name" isRequired autoFocus autoComplete="name" value={context.fields.name} onChange={(name) => change({ name })} errorMessage={context.fieldErrors.name} isDisabled={state.submitting} />
          <TextField
            label="Phone Number"
            type="tel"
            autoComplete="tel"
            placeholder="012-345 6789"
            value={context.fields.phone}
            onChange={(phone) => change({ phone })}
            errorMessage={context.fieldErrors.phone}
            isDisabled={state.submitting}
          />
          <TextField
            label="Email"
            type="email"
            autoComplete="email"
            placeholder="you@company.com"
            value={context.fields.email}
            onChange={(email) => change({ email })}
            errorMessage={context.fieldErrors.email}
            isDisabled={state.submitting}
          />
          <Select
            label="How did you hear about us?"
            isRequired
            items={HEARD}
            selectedKey={context.fields.hearAboutUs || null}
            onSelectionChange={(key) => change({ hearAboutUs: key ?? '' })}
            errorMessage={context.fieldErrors.hearAboutUs}
            isDisabled={state.submitting}
          />
          {state.staff ? (
            <p role="status" className="rounded-lg bg-blue-50 p-3 text-sm text-blue-900 dark:bg-blue-950 dark:text-blue-100">
              {STAFF_EMAIL_REGISTERED}
            </p>
          ) : (
            <div className="space-y-2">
              {state.loading && <Spinner label="Loading the verification" />}
              <div ref={widget} className="min-h-[78px]" data-testid="recaptcha" />
              {context.recaptchaError && (
                <p role="alert" className="text-sm text-red-700 dark:text-red-400">
                  {context.recaptchaError}
                </p>
              )}
            </div>
          )}
        </form>
      )}
    </Modal>
  );
}
