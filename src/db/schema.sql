-- placeholder, replaced by the database module
PRAGMA user_version;
