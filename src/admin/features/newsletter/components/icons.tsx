// Newsletter-only icons (the shared set in admin/ui/icons has the rest). Decorative: the
// text or label beside each one names it.
import { icon } from '#admin/ui/icons.tsx';

export const SyncIcon = icon(
  <>
    <path d="M21 12a9 9 0 0 1-15.5 6.2L3 16" />
    <path d="M3 12a9 9 0 0 1 15.5-6.2L21 8" />
    <path d="M21 3v5h-5M3 21v-5h5" />
  </>,
);

export const DownloadIcon = icon(
  <>
    <path d="M21 15v4a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-4" />
    <path d="m7 10 5 5 5-5M12 15V3" />
  </>,
);

export const CheckCircleIcon = icon(
  <>
    <circle cx="12" cy="12" r="10" />
    <path d="m8 12 3 3 5-6" />
  </>,
);

export const MinusCircleIcon = icon(
  <>
    <circle cx="12" cy="12" r="10" />
    <path d="M8 12h8" />
  </>,
);
