import { useEffect, useRef, useState } from 'react';
import type { Department } from '../../contract/departments';
import { isAbort } from '../api/api-error';
import { listAllDepartments } from '../api/departments';

/**
 * Every department of the signed-in person's organisation with its units, for the Department and Unit selects
 * (Profile, the Edit User dialog): null while loading, [] after a failure, which `onFailure` reports in the
 * screen's own words.
 */
export function useOrganisationDepartments(onFailure: () => void): Department[] | null {
  const [departments, setDepartments] = useState<Department[] | null>(null);
  // The latest callback, without reloading when a screen passes a new function on each render.
  const failed = useRef(onFailure);
  failed.current = onFailure;
  useEffect(() => {
    let live = true;
    listAllDepartments()
      .then((list) => live && setDepartments(list))
      .catch((error) => {
        if (!live || isAbort(error)) return;
        setDepartments([]);
        failed.current();
      });
    return () => {
      live = false;
    };
  }, []);
  return departments;
}
