-- Issue 13: names are limited to 500 characters (Unicode code points), what a person counts and what PostgreSQL's
-- varchar(n) counts; H2 counts UTF-16 units, so 500 characters outside the BMP (emoji) take 1000 of them. The
-- columns are widened so that every name the API accepts fits in both databases. SET DATA TYPE: both accept it.
alter table scenario alter column name set data type varchar(1000);
alter table run alter column scenario_name set data type varchar(1000);
alter table experiment alter column name set data type varchar(1000);
