import { describe, expect, it } from "vitest";
import { redactSecrets } from "./index.js";

describe("redactSecrets on XML configuration", () => {
  it("hides a Maven settings.xml server password and passphrase", () => {
    const settings = `<settings>
  <servers>
    <server>
      <id>internal-releases</id>
      <username>deploy</username>
      <password>Mvn5ecretPa55</password>
    </server>
    <server>
      <id>signing</id>
      <passphrase>gpgPhrase77x</passphrase>
    </server>
  </servers>
</settings>`;
    const redacted = redactSecrets(settings);
    expect(redacted).toContain("<password>[REDACTED]</password>");
    expect(redacted).toContain("<passphrase>[REDACTED]</passphrase>");
    expect(redacted).toContain("<username>deploy</username>");
  });

  it("hides .NET appSettings values whose key names a secret", () => {
    const config = `<configuration>
  <appSettings>
    <add key="DbPassword" value="Xy7s3cretDb" />
    <add key="Payments.ApiKey" value='abcd1234efgh5678' />
    <add key="RetryCount" value="3" />
  </appSettings>
  <connectionStrings>
    <add name="Main" connectionString="Server=db;User Id=sa;Password=Conn5tr1ngPw;" />
  </connectionStrings>
</configuration>`;
    const redacted = redactSecrets(config);
    for (const secret of ["Xy7s3cretDb", "abcd1234efgh5678", "Conn5tr1ngPw"])
      expect(redacted).not.toContain(secret);
    expect(redacted).toContain('<add key="DbPassword" value="[REDACTED]" />');
    expect(redacted).toContain('<add key="RetryCount" value="3" />');
  });

  it("hides Spring and Ant property values and Java XML properties", () => {
    const redacted = redactSecrets(
      `<property name="db.password" value="spr1ngPw99"/>\n<entry key="mail.smtp.password">javaMail42x</entry>\n<property name="db.url" value="jdbc:h2:mem:test"/>`,
    );
    expect(redacted).toBe(
      `<property name="db.password" value="[REDACTED]"/>\n<entry key="mail.smtp.password">[REDACTED]</entry>\n<property name="db.url" value="jdbc:h2:mem:test"/>`,
    );
  });

  it("leaves forms and ordinary elements alone", () => {
    for (const text of [
      '<input type="password" name="password" />',
      '<label for="password">Password</label><input name="password" value="">',
      '<add key="PasswordMinLength" value="12" />',
      "<password-policy>strict</password-policy>",
    ])
      expect(redactSecrets(text)).toBe(text);
  });
});
