-- AsAt: roles and database for docker-compose.dev.yml. Run once, by the postgres image's
-- entrypoint, when the data volume is first initialised (/docker-entrypoint-initdb.d).
-- The passwords come from the container's environment (ASAT_DB_OWNER_PASSWORD and
-- ASAT_DB_APP_PASSWORD, written into .env by install.sh); psql 15 reads them with \getenv.
--
--   asat_owner  owns database asat and schema research; runs migrations (ASAT_AUDIT_MIGRATE_URL)
--   asat_app    the services' role (ASAT_DATABASE_URL): neither owner nor superuser; migrate
--               grants it what it needs, nothing more.
\set ON_ERROR_STOP on
\getenv owner_password ASAT_DB_OWNER_PASSWORD
\getenv app_password ASAT_DB_APP_PASSWORD
\if :{?owner_password}
\else
  \echo 'ASAT_DB_OWNER_PASSWORD is not set: add it to .env (install.sh writes one) and recreate the postgres volume'
  SELECT 1/0 AS missing_owner_password;
\endif
\if :{?app_password}
\else
  \echo 'ASAT_DB_APP_PASSWORD is not set: add it to .env (install.sh writes one) and recreate the postgres volume'
  SELECT 1/0 AS missing_app_password;
\endif

CREATE ROLE asat_owner LOGIN PASSWORD :'owner_password'
  NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS;
CREATE ROLE asat_app LOGIN PASSWORD :'app_password'
  NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS NOINHERIT;

CREATE DATABASE asat OWNER asat_owner;
REVOKE ALL ON DATABASE asat FROM PUBLIC;
GRANT CONNECT, TEMPORARY ON DATABASE asat TO asat_app;

\connect asat
-- Nobody but the owner creates objects in public (Postgres 15 already revokes CREATE from PUBLIC).
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
