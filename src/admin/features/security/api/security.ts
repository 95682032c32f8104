// Account → Security's calls: better-auth's two-factor and passkey routes, and the site's own
// session list and password change.
import { startRegistration } from '@simplewebauthn/browser';
import { api } from '#lib/api-client.ts';
import { API } from '#shared/api-paths.ts';

export interface PasskeyDto {
  id: string;
  name?: string | null;
  createdAt?: string | null;
  deviceType: string;
}

export const enableTwoFactor = (password: string) => api<{ totpURI: string; backupCodes: string[] }>('POST', API.twoFactorEnable, { password });
export const confirmTwoFactor = (code: string) => api('POST', API.twoFactorVerify, { code });
export const disableTwoFactor = (password: string, code: string) => api('POST', API.twoFactorDisable, { password, code });
export const newBackupCodes = (password: string, code: string) => api<{ backupCodes: string[] }>('POST', API.twoFactorBackupCodes, { password, code });
export const changePassword = (currentPassword: string, newPassword: string) => api('POST', API.accountPassword, { currentPassword, newPassword });
export const setAlertEmail = (alertEmail: string) => api('PUT', API.accountAlertEmail, { alertEmail });

/** Registers a passkey of this device, once the password (and code) confirm the account: the browser asks the authenticator, the server keeps its public key. */
export async function addPasskey(name: string, password: string, code: string | undefined): Promise<void> {
  await api('POST', API.accountPasskeyConfirm, { password, ...(code === undefined ? {} : { code }) });
  const options = await api<Parameters<typeof startRegistration>[0]['optionsJSON']>('GET', API.passkeyRegisterOptions);
  const response = await startRegistration({ optionsJSON: options });
  await api('POST', API.passkeyRegister, { response, name });
}
export const renamePasskey = (id: string, name: string) => api('POST', API.passkeyRename, { id, name });
export const removePasskey = (id: string) => api('POST', API.passkeyDelete, { id });

/** The backup codes as a text file the browser downloads. */
export function downloadCodes(codes: string[], site: string): void {
  const text = `Backup codes for ${site}\nEach code signs you in once, when you cannot use your authenticator app.\n\n${codes.join('\n')}\n`;
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = 'backup-codes.txt';
  a.click();
  URL.revokeObjectURL(url);
}
