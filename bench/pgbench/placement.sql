-- A placement's round trips on PostgreSQL, in the service's order (eight): begin, three reads (webhook
-- endpoint, ported numbers, number checks), the orders, the NOTIFY, the debit with its ledger row, commit.
BEGIN;
select balance from hot where id = 1;
select 1;
select 2;
insert into ord (account, amount, created) values (1, 1, 0);
select pg_notify('orders', '');
with d as (update hot set balance = balance - 1 where id = 1 and balance >= 1 returning balance)
  insert into led (account, amount, balance_after) select 1, -1, balance from d;
COMMIT;
