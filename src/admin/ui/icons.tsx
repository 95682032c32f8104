// Small stroke icons for the admin (24x24, currentColor). Always decorative: the control that
// holds one carries the accessible name.
import type { SVGProps } from 'react';

type IconProps = Omit<SVGProps<SVGSVGElement>, 'children'> & { size?: number };

/** Circles as path data, so that every icon is one path. */
export const circle = (cx: number, cy: number, r: number) => `M${cx - r} ${cy}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0`;

/** An icon component from one path's data (`filled` fills it instead of stroking it); features with icons of their own make them with this too. */
export function icon(d: string, filled = false) {
  return function Icon({ size = 18, ...rest }: IconProps) {
    return (
      <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false" {...rest}>
        <path d={d} fill={filled ? 'currentColor' : undefined} />
      </svg>
    );
  };
}

export const PlusIcon = icon('M12 5v14M5 12h14');
export const PencilIcon = icon('M12 20h9M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4Z');
export const TrashIcon = icon('M3 6h18M8 6V4h8v2M19 6l-1 14H6L5 6M10 11v6M14 11v6');
export const PlayIcon = icon('M7 4.5v15l12-7.5Z', true);
export const StopIcon = icon('M7.5 6h9A1.5 1.5 0 0 1 18 7.5v9a1.5 1.5 0 0 1-1.5 1.5h-9A1.5 1.5 0 0 1 6 16.5v-9A1.5 1.5 0 0 1 7.5 6Z', true);
export const EyeIcon = icon(`M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12Z${circle(12, 12, 3)}`);
export const ExternalLinkIcon = icon('M14 4h6v6M20 4 10 14M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5');
export const UploadIcon = icon('M12 15V4M7 9l5-5 5 5M4 15v4a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-4');
export const DocumentIcon = icon('M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8ZM14 3v5h5M9 13h6M9 17h4');
export const MicIcon = icon('M12 3a3 3 0 0 1 3 3v5a3 3 0 0 1-6 0V6a3 3 0 0 1 3-3ZM5 11a7 7 0 0 0 14 0M12 18v3');
export const BagIcon = icon('M6 8h12l-1 12H7ZM9 8V6a3 3 0 0 1 6 0v2');
export const MailIcon = icon('M5 5h14a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V7a2 2 0 0 1 2-2ZM3 7l9 6 9-6');
export const UsersIcon = icon(`${circle(9, 8, 3.5)}M2.5 20a6.5 6.5 0 0 1 13 0M16 4.5a3.5 3.5 0 0 1 0 7M18 14.5a6.5 6.5 0 0 1 3.5 5.5`);
export const ChartIcon = icon('M4 20V4M4 20h16M8 16v-5M12 16V8M16 16v-3');
export const ClockIcon = icon(`${circle(12, 12, 9)}M12 7v5l3 2`);
export const CalendarIcon = icon('M5 5h14a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V7a2 2 0 0 1 2-2ZM3 10h18M8 3v4M16 3v4');
export const CartIcon = icon(`${circle(9, 20, 1.3)}${circle(18, 20, 1.3)}M2 3h3l2.7 12.4a1 1 0 0 0 1 .8h9.6a1 1 0 0 0 1-.8L21 7H6`);
export const DollarIcon = icon('M12 2v20M17 6H9.5a3.5 3.5 0 0 0 0 7h5a3.5 3.5 0 0 1 0 7H6');
export const CheckIcon = icon('M5 12l5 5 9-10');
export const ArrowRightIcon = icon('M5 12h14M13 6l6 6-6 6');
export const ArrowLeftIcon = icon('M19 12H5M11 18l-6-6 6-6');
export const GlobeIcon = icon(`${circle(12, 12, 9)}M3 12h18M12 3a14 14 0 0 1 0 18M12 3a14 14 0 0 0 0 18`);
export const ImageIcon = icon(`M5 4h14a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2Z${circle(9, 10, 2)}M21 16l-5-5-9 9`);
export const XIcon = icon('M6 6l12 12M18 6 6 18');
