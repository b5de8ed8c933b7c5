-- The last authenticator time step accepted for each user: a code is good once, so a code
-- overheard or phished cannot be replayed within its 30-second window.
ALTER TABLE users ADD COLUMN totp_last_step bigint;
