import { useEffect, useState } from 'react';
import { NavLink, useLocation } from 'react-router-dom';
import { Button as AriaButton } from 'react-aria-components/Button';
import { LogOut, Menu, X } from 'lucide-react';
import { ProfileMenu } from '../session/profile-menu';
import { NAV_LINKS } from './route-access';
import { useSession } from '../session/session';

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `block rounded-lg px-3 py-2 text-sm font-medium ${
    isActive ? 'bg-primary text-gray-900' : 'text-gray-700 hover:bg-gray-200 dark:text-gray-200 dark:hover:bg-gray-700'
  }`;

function SidebarBody() {
  const role = useSession((c) => c.user?.role ?? null);
  return (
    <div className="flex h-full flex-col gap-4 p-4">
      <div className="px-3 text-xl font-bold tracking-tight">Tanya</div>
      <nav aria-label="Main" className="flex-1">
        <ul className="space-y-1">
          {NAV_LINKS.filter((l) => role && l.roles.includes(role)).map((l) => (
            <li key={l.to}>
              <NavLink to={l.to} className={linkClass}>
                {l.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="space-y-1 border-t border-gray-200 pt-3 dark:border-gray-700">
        <ProfileMenu />
        <NavLink to="/logout" className={linkClass}>
          <span className="flex items-center gap-2">
            <LogOut aria-hidden className="size-4" /> Logout
          </span>
        </NavLink>
      </div>
    </div>
  );
}

/** Navigation for admins and superusers: a column on desktop, a slide-in drawer under 768 px. */
export default function Sidebar() {
  const [open, setOpen] = useState(false);
  const { pathname } = useLocation();
  useEffect(() => setOpen(false), [pathname]);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);

  return (
    <>
      <aside className="hidden w-64 shrink-0 border-r border-gray-200 bg-white md:block dark:border-gray-700 dark:bg-gray-900">
        <div className="sticky top-0 h-dvh">
          <SidebarBody />
        </div>
      </aside>
      <header className="sticky top-0 z-30 flex h-14 items-center gap-3 border-b border-gray-200 bg-white px-3 md:hidden dark:border-gray-700 dark:bg-gray-900">
        <AriaButton
          aria-label="Open menu"
          aria-expanded={open}
          onPress={() => setOpen(true)}
          className="rounded-lg p-2 hover:bg-gray-100 dark:hover:bg-gray-800"
        >
          <Menu aria-hidden className="size-5" />
        </AriaButton>
        <span className="text-lg font-bold tracking-tight">Tanya</span>
      </header>
      {open && (
        <div className="fixed inset-0 z-40 md:hidden">
          <div data-testid="drawer-overlay" aria-hidden className="absolute inset-0 bg-black/40" onClick={() => setOpen(false)} />
          <aside aria-label="Menu" className="absolute inset-y-0 left-0 w-72 max-w-[85vw] bg-white shadow-xl dark:bg-gray-900">
            <AriaButton
              aria-label="Close menu"
              onPress={() => setOpen(false)}
              autoFocus
              className="absolute right-2 top-2 rounded-lg p-2 hover:bg-gray-100 dark:hover:bg-gray-800"
            >
              <X aria-hidden className="size-5" />
            </AriaButton>
            <SidebarBody />
          </aside>
        </div>
      )}
    </>
  );
}
