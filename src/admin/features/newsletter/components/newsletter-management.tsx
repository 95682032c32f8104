import { PageHeader } from '@/admin/ui/controls';

export default function NewsletterManagement() {
  return <PageHeader title="Newsletter Management" />;
}
