import { PageHeader } from '@/admin/ui/controls';

export default function ProductManagement() {
  return <PageHeader title="Product Management" />;
}
