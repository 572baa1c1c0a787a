import { lazy, Suspense, useCallback, useState } from 'react';
import { NavLink } from 'react-router-dom';
import { Button as AriaButton } from 'react-aria-components/Button';
import { Dialog, DialogTrigger } from 'react-aria-components/Dialog';
import { Popover } from 'react-aria-components/Popover';
import { ChevronUp } from 'lucide-react';
import { Avatar } from '../ui/avatar';
import type { FeedbackType } from '../../contract/feedback-constants';
import { useSession } from './session';
import { ThemeChoiceControl } from './theme-choice';

// Loaded when first opened: this menu is on every signed-in screen.
const FeedbackModal = lazy(() => import('./feedback-modal'));

/**
 * The profile button (spec section 2, Sidebar): it leads to /profile; beside it, a popover with the person's
 * name, email, the theme choice and a My Profile link. In the app sidebar and the chat sidebar.
 */
export function ProfileMenu() {
  const me = useSession((c) => ({ name: c.user?.name ?? '', email: c.user?.email ?? '', image: c.user?.image_url ?? null }));
  const [feedbackKind, setFeedbackKind] = useState<FeedbackType | null>(null);
  const closeFeedback = useCallback(() => setFeedbackKind(null), []);
  return (
    <div className="flex items-center gap-1">
      <NavLink
        to="/profile"
        className="flex min-w-0 flex-1 items-center gap-3 rounded-lg p-2 text-left hover:bg-gray-200 dark:hover:bg-gray-700"
      >
        <Avatar name={me.name} imageUrl={me.image} size="sm" />
        {/* Named by its visible text (axe: label-content-name-mismatch), plus where it leads. */}
        <span className="min-w-0 flex-1 truncate text-sm font-medium">
          {me.name}
          <span className="sr-only">, profile</span>
        </span>
      </NavLink>
      <DialogTrigger>
        <AriaButton aria-label="Account details" className="rounded-lg p-2 hover:bg-gray-200 dark:hover:bg-gray-700">
          <ChevronUp aria-hidden className="size-4" />
        </AriaButton>
        <Popover placement="top start" className="w-64 rounded-xl border border-gray-200 bg-white p-4 shadow-lg dark:border-gray-700 dark:bg-gray-800">
          <Dialog aria-label="Profile" className="outline-none">
            <p className="truncate font-semibold">{me.name}</p>
            <p className="truncate text-sm text-gray-600 dark:text-gray-300">{me.email}</p>
            <ThemeChoiceControl />
            <NavLink to="/profile" className="mt-3 block rounded-lg px-3 py-2 text-sm font-medium hover:bg-gray-100 dark:hover:bg-gray-700">
              My Profile
            </NavLink>
            <NavLink to="/shared-links" className="block rounded-lg px-3 py-2 text-sm font-medium hover:bg-gray-100 dark:hover:bg-gray-700">
              Shared Links
            </NavLink>
            {(['feedback', 'report'] as const).map((kind) => (
              <AriaButton
                key={kind}
                slot="close"
                onPress={() => setFeedbackKind(kind)}
                className="block w-full rounded-lg px-3 py-2 text-left text-sm font-medium hover:bg-gray-100 dark:hover:bg-gray-700"
              >
                {kind === 'feedback' ? 'Submit Feedback' : 'Report an Issue'}
              </AriaButton>
            ))}
          </Dialog>
        </Popover>
      </DialogTrigger>
      {feedbackKind && (
        <Suspense fallback={null}>
          <FeedbackModal key={feedbackKind} kind={feedbackKind} onClose={closeFeedback} />
        </Suspense>
      )}
    </div>
  );
}
