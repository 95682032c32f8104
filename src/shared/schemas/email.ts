// E-mails as Admin → E-mails lists them (without their bodies).
export type EmailStatus = 'pending' | 'sent' | 'failed' | 'unsent';

export interface EmailDto {
  id: number;
  kind: string;
  to: string;
  subject: string;
  status: EmailStatus;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: Date;
  sentAt: Date | null;
  createdAt: Date;
}
