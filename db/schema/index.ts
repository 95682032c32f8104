export * from './auth.ts';
export * from './content.ts';
export * from './commerce.ts';
export * from './storage.ts';
export * from './mail.ts';
export * from './settings.ts';
export * from './imports.ts';
export * from './site.ts';
