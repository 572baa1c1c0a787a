import { lazy, Suspense, useMemo, useState, type FormEvent } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { ArrowUp, Brain, FileText, Globe, Image, KeyRound, Lightbulb, LifeBuoy, Lock, PenLine, ShieldCheck, Upload } from 'lucide-react';
import { fromPromise } from 'xstate';
import type { ContactFormRequest, ContactFormSettings } from '../../../contract/contact-form';
import { contactFormMachine } from '../../../machines/contact-form.machine';
import { fetchContactFormSettings, sendContactForm } from '../../api/contact-form';
import { withAnswerStatus } from '../../lib/answer-status';
import { Button as AriaButton } from 'react-aria-components/Button';
import { Button, ButtonLink } from '../../ui/button';
import { useHydrated } from '../../ui/use-hydrated';
import { CLAIMS, FEATURES, SAMPLE_PROMPTS } from './landing-content';
import { LandingFaq } from './landing-faq';

// The form (fields, select, modal and the reCAPTCHA loader) loads when a visitor first opens it.
const ContactModal = lazy(() => import('./contact-modal').then((m) => ({ default: m.ContactModal })));

const PROMPT_ICONS = [FileText, Image, PenLine, Lightbulb];
const FEATURE_ICONS = [Globe, Upload, Brain];
const CLAIM_ICONS = [Lock, ShieldCheck, LifeBuoy, KeyRound];

const section = 'mx-auto w-full max-w-5xl px-4 md:px-8';
const card = 'rounded-2xl border border-gray-200 bg-white p-5 dark:border-gray-700 dark:bg-gray-900';

/**
 * The public front door (/): what Tanya does, sample prompts that fill the message box, whose send opens
 * 'Let's Register!' (the contact form machine), the features, the FAQ. Rendered into landing.html at build time.
 */
export default function LandingPage() {
  const machine = useMemo(
    () =>
      contactFormMachine.provide({
        actors: {
          fetchSettings: fromPromise<ContactFormSettings, void>(() => withAnswerStatus(fetchContactFormSettings())),
          submit: fromPromise<{ message?: string }, Required<ContactFormRequest>>(({ input }) => withAnswerStatus(sendContactForm(input))),
        },
      }),
    [],
  );
  const form = useActorRef(machine);
  const formOpened = useSelector(form, (s) => !s.matches('closed'));
  const [everOpened, setEverOpened] = useState(false);
  const [draft, setDraft] = useState('');
  // Prerendered (landing.html): until the page is live its buttons do nothing, so they say so.
  const live = useHydrated();
  const open = () => {
    setEverOpened(true);
    form.send({ type: 'contact.open' });
  };
  const send = (e: FormEvent) => {
    e.preventDefault();
    open();
  };

  return (
    <div className="flex min-h-dvh flex-col bg-gray-50 text-gray-900 dark:bg-gray-950 dark:text-gray-100">
      <header className="sticky top-0 z-10 border-b border-gray-200 bg-white/90 backdrop-blur dark:border-gray-800 dark:bg-gray-950/90">
        <div className={`${section} flex items-center justify-between py-3`}>
          <span className="flex items-center gap-2 text-xl font-black tracking-tight">
            <span aria-hidden className="flex size-8 items-center justify-center rounded-lg bg-primary text-gray-950">
              T
            </span>
            Tanya
          </span>
          <nav aria-label="Account" className="flex gap-2">
            <ButtonLink href="/login" variant="ghost">
              Log In
            </ButtonLink>
            <Button variant="primary" onPress={open} isDisabled={!live}>
              Get Started
            </Button>
          </nav>
        </div>
      </header>

      <div className="flex-1">
        <section className="bg-gradient-to-b from-primary/30 to-transparent pb-12 pt-14 md:pt-20">
          <div className={`${section} text-center`}>
            <h1 className="text-4xl font-bold tracking-tight md:text-5xl">Ask Tanya anything at work</h1>
            <p className="mx-auto mt-4 max-w-2xl text-lg text-gray-700 dark:text-gray-300">
              The AI assistant your whole organisation can trust: private chats, web search, your documents, and answers it
              has thought through.
            </p>
            <form onSubmit={send} className="mx-auto mt-8 flex max-w-3xl items-end gap-2 rounded-2xl border border-gray-300 bg-white p-2 shadow-sm dark:border-gray-700 dark:bg-gray-900">
              <label htmlFor="landing-message" className="sr-only">
                Message Tanya
              </label>
              <textarea
                id="landing-message"
                rows={2}
                value={draft}
                readOnly={!live}
                onChange={(e) => setDraft(e.target.value)}
                placeholder="Ask Tanya anything..."
                className="max-h-40 min-h-12 flex-1 resize-none bg-transparent px-3 py-2 text-base outline-none placeholder:text-gray-500 dark:placeholder:text-gray-400"
              />
              <Button type="submit" variant="primary" aria-label="Send message" isDisabled={!live} className="size-11 shrink-0 rounded-xl p-0">
                <ArrowUp aria-hidden className="size-5" />
              </Button>
            </form>
            <ul aria-label="Sample prompts" className="mx-auto mt-6 grid max-w-3xl gap-3 sm:grid-cols-2">
              {SAMPLE_PROMPTS.map((sample, i) => {
                const Icon = PROMPT_ICONS[i]!;
                return (
                  <li key={sample.title}>
                    <AriaButton
                      onPress={() => setDraft(sample.prompt)}
                      isDisabled={!live}
                      className="flex h-full w-full cursor-pointer flex-col items-start gap-1 rounded-2xl border border-gray-200 bg-white p-4 text-left shadow-xs outline-none transition-colors hover:border-gray-400 focus-visible:ring-2 focus-visible:ring-blue-600 dark:border-gray-700 dark:bg-gray-900 dark:hover:border-gray-500"
                    >
                      <span className="flex items-center gap-2 font-semibold">
                        <Icon aria-hidden className="size-4 text-primary-ink dark:text-primary" />
                        {sample.title}
                      </span>
                      <span className="text-sm text-gray-700 dark:text-gray-300">{sample.prompt}</span>
                    </AriaButton>
                  </li>
                );
              })}
            </ul>
          </div>
        </section>

        <section aria-labelledby="features" className={`${section} py-12`}>
          <h2 id="features" className="text-center text-2xl font-bold md:text-3xl">
            Everything your staff ask for
          </h2>
          <ul className="mt-8 grid gap-4 md:grid-cols-3">
            {FEATURES.map((feature, i) => {
              const Icon = FEATURE_ICONS[i]!;
              return (
                <li key={feature.title} className={card}>
                  <Icon aria-hidden className="size-6 text-primary-ink dark:text-primary" />
                  <h3 className="mt-3 text-lg font-semibold">{feature.title}</h3>
                  <p className="mt-2 text-gray-700 dark:text-gray-300">{feature.text}</p>
                </li>
              );
            })}
          </ul>
        </section>

        <section aria-labelledby="trust" className={`${section} py-12`}>
          <h2 id="trust" className="text-center text-2xl font-bold md:text-3xl">
            Safe for your organisation
          </h2>
          <ul className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {CLAIMS.map((claim, i) => {
              const Icon = CLAIM_ICONS[i]!;
              return (
                <li key={claim.title} className={card}>
                  <Icon aria-hidden className="size-5 text-primary-ink dark:text-primary" />
                  <h3 className="mt-2 font-semibold">{claim.title}</h3>
                  <p className="mt-1 text-sm text-gray-700 dark:text-gray-300">{claim.text}</p>
                </li>
              );
            })}
          </ul>
        </section>

        <section aria-labelledby="faq" className={`${section} max-w-3xl py-12`}>
          <h2 id="faq" className="mb-6 text-center text-2xl font-bold md:text-3xl">
            Frequently asked questions
          </h2>
          <LandingFaq />
        </section>
      </div>

      <footer className="border-t border-gray-200 py-6 text-center text-sm text-gray-600 dark:border-gray-800 dark:text-gray-400">
        © {new Date().getFullYear()} Tanya. All rights reserved.
      </footer>

      {(everOpened || formOpened) && (
        <Suspense fallback={null}>
          <ContactModal form={form} />
        </Suspense>
      )}
    </div>
  );
}
