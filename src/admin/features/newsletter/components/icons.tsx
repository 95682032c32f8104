// Newsletter-only icons (the shared set in admin/ui/icons has the rest). Decorative: the
// text or label beside each one names it.
import { circle, icon } from '#admin/ui/icons.tsx';

export const SyncIcon = icon('M21 12a9 9 0 0 1-15.5 6.2L3 16M3 12a9 9 0 0 1 15.5-6.2L21 8M21 3v5h-5M3 21v-5h5');
export const DownloadIcon = icon('M21 15v4a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-4M7 10l5 5 5-5M12 15V3');
export const CheckCircleIcon = icon(`${circle(12, 12, 10)}M8 12l3 3 5-6`);
export const MinusCircleIcon = icon(`${circle(12, 12, 10)}M8 12h8`);
