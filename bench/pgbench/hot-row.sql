-- One durable commit per request that debits the same account row: the least a placement must do.
update hot set balance = balance - 1 where id = 1 and balance >= 1;
