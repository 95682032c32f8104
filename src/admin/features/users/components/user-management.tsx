import { PageHeader } from '@/admin/ui/controls';

export default function UserManagement() {
  return <PageHeader title="User Management" />;
}
