-- The PostgreSQL ceiling for one account, measured without Node (docs/PERFORMANCE.md):
--   createdb pgb && psql -d pgb -f bench/pgbench/setup.sql
--   pgbench -n -c 10 -j 2 -T 8 -f bench/pgbench/hot-row.sql pgb
--   pgbench -n -c 10 -j 2 -T 8 -f bench/pgbench/placement.sql pgb
create table hot (id int primary key, balance bigint not null);
insert into hot values (1, 1000000000);
create table ord (id bigserial primary key, account int, amount bigint, created bigint);
create table led (id bigserial primary key, account int, amount bigint, balance_after bigint);
