import { paths } from '../../contract/api-paths';
import type { UpdateProfileRequest, UpdateProfileResponse } from '../../contract/profile';
import type { User } from '../../contract/user';
import { api } from './http';

export async function fetchMe(): Promise<User> {
  return (await api.get<User>(paths.me)).data;
}

export async function updateProfile(body: UpdateProfileRequest): Promise<UpdateProfileResponse> {
  return (await api.patch<UpdateProfileResponse>(paths.updateProfile, body)).data;
}
