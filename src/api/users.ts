import { pathTo, paths } from '../../contract/api-paths';
import type { UpdateProfileRequest, UpdateProfileResponse } from '../../contract/profile';
import type { User, UserStatus } from '../../contract/user';
import type { UpdateUserRequest, UserList } from '../../contract/users';
import { api } from './http';

export async function fetchMe(): Promise<User> {
  return (await api.get<User>(paths.me)).data;
}

export async function updateProfile(body: UpdateProfileRequest): Promise<UpdateProfileResponse> {
  return (await api.patch<UpdateProfileResponse>(paths.updateProfile, body)).data;
}

/**
 * A page of the organisation's people (the Users page): by name or e-mail, and by status when one is chosen;
 * `clientId`: a client's people, for the superuser (/clients/{id}/users).
 */
export async function fetchUserPage(
  q: { page: number; pageSize: number; search: string; status?: UserStatus; clientId?: string },
  signal?: AbortSignal,
): Promise<UserList> {
  const query = {
    page: q.page,
    page_size: q.pageSize,
    ...(q.search ? { search: q.search } : {}),
    ...(q.status ? { status: q.status } : {}),
    ...(q.clientId ? { client_id: q.clientId } : {}),
  };
  return (await api.get<UserList>(paths.users, { query, signal })).data;
}

export async function updateUser(id: string, body: UpdateUserRequest): Promise<User> {
  return (await api.patch<User>(pathTo(paths.user, { id }), body)).data;
}

export async function setUserStatus(id: string, status: UserStatus): Promise<User> {
  return (await api.patch<User>(pathTo(paths.userStatus, { id }), undefined, { query: { status } })).data;
}

/** Mails the person a new activation link (they have not verified their address yet). */
export async function resendActivation(userId: string): Promise<void> {
  await api.post<null>(paths.resendActivation, undefined, { query: { user_id: userId } });
}
