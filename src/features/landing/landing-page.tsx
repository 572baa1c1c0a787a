import { ButtonLink } from '../../ui/button';

/** The public front door; the full landing page (sample prompts, features, FAQ) comes with its own release. */
export default function LandingPage() {
  return (
    <div className="flex min-h-dvh flex-col">
      <header className="flex items-center justify-between p-4 md:px-10">
        <span className="text-xl font-bold tracking-tight">Tanya</span>
        <nav aria-label="Account" className="flex gap-2">
          <ButtonLink href="/login" variant="ghost">
            Log In
          </ButtonLink>
          <ButtonLink href="/login" variant="primary">
            Get Started
          </ButtonLink>
        </nav>
      </header>
      <div className="mx-auto flex max-w-2xl flex-1 flex-col items-center justify-center gap-4 p-6 text-center">
        <h1 className="text-4xl font-bold tracking-tight md:text-5xl">Ask Tanya</h1>
        <p className="text-lg text-gray-700 dark:text-gray-300">The AI chat assistant for your organisation.</p>
      </div>
    </div>
  );
}
