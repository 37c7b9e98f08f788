import { useState } from 'react';
import { Navigate } from 'react-router';
import { toast } from 'sonner';
import { useMe } from '@/features/auth/api/auth';
import { DataTable } from '@/components/data-table/data-table';
import { columnHelper } from '@/components/data-table/table-features';
import { PageHeader } from '@/components/page-header';
import { SwitchField } from '@/components/form/switch-field';
import { TextField } from '@/components/form/text-field';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime, titleCase } from '@/lib/format';
import { useAdminUsers, useDisableUser, useEnableUser, useInviteUser, useResetSecondFactor, useRestore, useSetAdmin, useSetPhone, useTrash, type AdminUserRow, type TrashItem } from '../api/admin';

const userHelper = columnHelper<AdminUserRow>();
const trashHelper = columnHelper<TrashItem>();

function UserActions({ user, selfId }: { user: AdminUserRow; selfId: string }) {
  const setAdmin = useSetAdmin();
  const disable = useDisableUser();
  const enable = useEnableUser();
  const resetFactor = useResetSecondFactor();
  const fail = (error: unknown) => toast.error('Error', { description: errorMessage(error, 'The change was not saved') });
  if (user.id === selfId) return <span className="text-xs text-muted-foreground">You</span>;
  return (
    <div className="flex flex-wrap gap-2">
      <Button
        size="sm"
        variant="outline"
        disabled={setAdmin.isPending}
        onClick={() =>
          setAdmin.mutate(
            { id: user.id, is_admin: !user.is_admin },
            { onSuccess: () => toast.success(user.is_admin ? `Admin revoked from ${user.email}` : `Admin granted to ${user.email}`), onError: fail },
          )
        }
      >
        {user.is_admin ? 'Revoke Admin' : 'Grant Admin'}
      </Button>
      {!user.disabled && (
        <Button
          size="sm"
          variant="destructive"
          disabled={disable.isPending}
          onClick={() => {
            if (!window.confirm(`Disable ${user.email}? They are signed out and can no longer sign in.`)) return;
            disable.mutate(user.id, { onSuccess: () => toast.success(`${user.email} disabled`), onError: fail });
          }}
        >
          Disable
        </Button>
      )}
      <Button
        size="sm"
        variant="outline"
        disabled={resetFactor.isPending}
        onClick={() => {
          if (!window.confirm(`Reset the second factor of ${user.email}? Their authenticator app, passkeys and recovery codes stop working; they sign in with their password and set up a new one.`)) return;
          resetFactor.mutateAsync(user.id).then(() => toast.success(`Second factor of ${user.email} reset`), fail);
        }}
      >
        Reset Second Factor
      </Button>
      {user.disabled && (
        <Button
          size="sm"
          variant="outline"
          disabled={enable.isPending}
          // The row redraws once the list refreshes, so the toast follows the promise, not the row.
          onClick={() => enable.mutateAsync(user.id).then(() => toast.success(`${user.email} re-enabled`), fail)}
        >
          Re-enable
        </Button>
      )}
    </div>
  );
}

/** A user's mobile for Settings → Notifications' texts on urgent updates. The dialog lives
 * outside the table, so a refetch that redraws the rows cannot close it mid-edit. */
function MobileDialog({ user, onClose }: { user: AdminUserRow | null; onClose: () => void }) {
  const [phone, setPhone] = useState('');
  // The user and version as the dialog opened: a save over someone else's change since
  // is a conflict, not a lost update.
  const [editing, setEditing] = useState<{ id: string; version: number } | null>(null);
  const save = useSetPhone();
  if (user && editing?.id !== user.id) {
    setEditing({ id: user.id, version: user.version });
    setPhone(user.phone);
  }
  const who = user ? user.full_name || user.email : '';
  return (
    <Dialog
      open={user !== null}
      onOpenChange={(open) => {
        if (!open) {
          setEditing(null);
          onClose();
        }
      }}
    >
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Mobile of {who}</DialogTitle>
          <DialogDescription>Texts on urgent updates about their clients go here (Settings → Notifications). Leave it empty for none.</DialogDescription>
        </DialogHeader>
        <form
          id="mobile-form"
          onSubmit={(event) => {
            event.preventDefault();
            if (!editing) return;
            save.mutate(
              { id: editing.id, phone: phone.trim(), version: editing.version },
              {
                onSuccess: () => {
                  toast.success(`Mobile saved for ${who}`);
                  setEditing(null);
                  onClose();
                },
                onError: (error) => toast.error('Error', { description: errorMessage(error, 'The change was not saved') }),
              },
            );
          }}
        >
          <TextField id="user-mobile" label="Mobile" type="tel" value={phone} onChange={setPhone} autoComplete="off" />
        </form>
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form="mobile-form" disabled={save.isPending}>
            {save.isPending ? 'Saving...' : 'Save'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function InviteCard() {
  const [email, setEmail] = useState('');
  const [isAdmin, setIsAdmin] = useState(false);
  const invite = useInviteUser();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Invite a User</CardTitle>
        <CardDescription>Only invited addresses can sign up. The invitation is emailed to them.</CardDescription>
      </CardHeader>
      <CardContent>
        <form
          className="flex flex-col gap-3"
          onSubmit={(event) => {
            event.preventDefault();
            invite.mutate(
              { email, is_admin: isAdmin },
              {
                onSuccess: () => {
                  toast.success(`Invitation sent to ${email}`);
                  setEmail('');
                  setIsAdmin(false);
                },
                onError: (error) => toast.error('Error', { description: errorMessage(error, 'The invitation was not sent') }),
              },
            );
          }}
        >
          <TextField id="invite-email" label="Email" type="email" required value={email} onChange={setEmail} />
          <SwitchField id="invite-admin" label="Administrator" checked={isAdmin} onChange={setIsAdmin} />
          <div>
            <Button type="submit" disabled={invite.isPending || email.trim() === ''}>
              {invite.isPending ? 'Sending...' : 'Send Invitation'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

function RestoreButton({ item }: { item: TrashItem }) {
  const restore = useRestore();
  return (
    <Button
      size="sm"
      variant="outline"
      disabled={restore.isPending}
      aria-label={`Restore ${titleCase(item.kind)} of ${item.client_name}`}
      onClick={() => {
        // The row leaves the trash once restored, so the toast follows the promise, not the row.
        restore.mutateAsync(item).then(
          () => toast.success(`${titleCase(item.kind)} of ${item.client_name} restored`),
          (error: unknown) => toast.error('Error', { description: errorMessage(error, 'Failed to restore') }),
        );
      }}
    >
      Restore
    </Button>
  );
}

const trashColumns = trashHelper.columns([
  trashHelper.accessor('kind', { header: 'Record', cell: (info) => <Badge variant="secondary">{titleCase(info.getValue())}</Badge> }),
  trashHelper.accessor('client_name', { header: 'Client', cell: (info) => <span className="font-medium">{info.getValue()}</span> }),
  trashHelper.accessor('deleted_by', { header: 'Deleted By', cell: (info) => info.getValue() ?? 'Unknown' }),
  trashHelper.accessor('deleted_at', { header: 'Deleted', cell: (info) => formatDateTime(info.getValue()) }),
  trashHelper.display({ id: 'restore', header: () => <span className="sr-only">Actions</span>, cell: ({ row }) => <RestoreButton item={row.original} /> }),
]);

export default function AdminPage() {
  const me = useMe();
  const users = useAdminUsers();
  const trash = useTrash();
  const [mobileOf, setMobileOf] = useState<string | null>(null);
  if (me.data && !me.data.is_admin) return <Navigate to="/" replace />;
  const selfId = me.data?.id ?? '';
  const mobileUser = users.data?.items.find((user) => user.id === mobileOf) ?? null;

  const userColumns = userHelper.columns([
    userHelper.accessor('full_name', { header: 'Name', cell: (info) => <span className="font-medium">{info.getValue() || '—'}</span> }),
    userHelper.accessor('email', { header: 'Email' }),
    userHelper.display({
      id: 'role',
      header: 'Role',
      cell: ({ row }) => (
        <span className="flex gap-1">
          {row.original.is_admin ? <Badge>Admin</Badge> : <Badge variant="outline">Staff</Badge>}
          {row.original.disabled && <Badge variant="destructive">Disabled</Badge>}
        </span>
      ),
    }),
    userHelper.accessor('phone', {
      header: 'Mobile',
      cell: ({ row }) => (
        <span className="flex items-center gap-2">
          <span className={row.original.phone ? '' : 'text-muted-foreground'}>{row.original.phone || 'None'}</span>
          <Button size="sm" variant="ghost" aria-label={`Edit mobile of ${row.original.full_name || row.original.email}`} onClick={() => setMobileOf(row.original.id)}>
            Edit
          </Button>
        </span>
      ),
    }),
    userHelper.accessor('last_sign_in_at', { header: 'Last Sign-in', cell: (info) => formatDateTime(info.getValue()) || 'Never' }),
    userHelper.display({ id: 'actions', header: () => <span className="sr-only">Actions</span>, cell: ({ row }) => <UserActions user={row.original} selfId={selfId} /> }),
  ]);

  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="Admin" description="Users and the trash. Only administrators see this page." />
      <section aria-labelledby="users-heading" className="flex flex-col gap-3">
        <h2 id="users-heading" className="text-lg font-semibold">
          Users
        </h2>
        <DataTable
          columns={userColumns}
          data={users.data?.items ?? []}
          getRowId={(user) => user.id}
          caption="Users"
          emptyText="No users yet."
          loading={users.isPending}
        />
        <MobileDialog user={mobileUser} onClose={() => setMobileOf(null)} />
        <InviteCard />
      </section>
      <section aria-labelledby="trash-heading" className="flex flex-col gap-3">
        <h2 id="trash-heading" className="text-lg font-semibold">
          Trash
        </h2>
        <p className="text-sm text-muted-foreground">Deleted intakes, assessments, care plans and contracts. Restore puts a record back where it was.</p>
        <DataTable
          columns={trashColumns}
          data={trash.data?.items ?? []}
          getRowId={(item) => `${item.kind}-${item.id}`}
          caption="Trash"
          emptyText="The trash is empty."
          loading={trash.isPending}
        />
      </section>
    </div>
  );
}
