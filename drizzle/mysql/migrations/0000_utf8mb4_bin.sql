-- Hand-written: drizzle cannot declare a character set or collation, so the
-- database default is set before any table exists and every table and column
-- inherits it. utf8mb4 stores all of Unicode, emoji included; the binary
-- collation returns strings byte for byte and compares them by code point
-- (e-mails are stored lower case, so no case folding is needed). Like every
-- PAD SPACE collation it ignores trailing spaces when comparing; the
-- repositories re-check text lookups so all databases answer alike.
ALTER DATABASE CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;
