import { useEffect, useState } from 'react';
import type { Department } from '../../../contract/departments';
import { isAbort } from '../../api/api-error';
import { listAllDepartments } from '../../api/departments';
import { toast } from '../../ui/toast';

/** The organisation's departments with their units, for the Profile selects. */
export function useDepartments() {
  const [departments, setDepartments] = useState<Department[] | null>(null);
  useEffect(() => {
    let live = true;
    listAllDepartments()
      .then((list) => live && setDepartments(list))
      .catch((error) => {
        if (!live || isAbort(error)) return;
        setDepartments([]);
        toast.error('Failed to load profile data');
      });
    return () => {
      live = false;
    };
  }, []);
  return departments;
}
