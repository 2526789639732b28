package io.legacygateway.broker;

import java.net.URL;
import org.apache.activemq.artemis.core.config.Configuration;
import org.apache.activemq.artemis.core.config.FileDeploymentManager;
import org.apache.activemq.artemis.core.config.impl.FileConfiguration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.jms.artemis.ArtemisConfigurationCustomizer;

/**
 * Gives the embedded broker the behaviour of {@code artemis-config/broker.xml}: address settings (redelivery, dead
 * letters), addresses, and duplicate detection. Acceptors, paths and security stay Spring Boot's: in-VM only, no
 * network port, so the demo needs no credentials.
 */
public class BrokerXmlCustomizer implements ArtemisConfigurationCustomizer {

    private static final Logger log = LoggerFactory.getLogger(BrokerXmlCustomizer.class);
    /** The copy of {@code artemis-config/broker.xml} the build puts on the classpath. */
    public static final String RESOURCE = "artemis/broker.xml";

    @Override
    public void customize(Configuration configuration) {
        FileConfiguration file = read();
        configuration.setAddressSettings(file.getAddressSettings());
        configuration.setAddressConfigurations(file.getAddressConfigurations());
        configuration.setIDCacheSize(file.getIDCacheSize());
        configuration.setPersistIDCache(file.isPersistIDCache());
        configuration.setPersistDeliveryCountBeforeDelivery(file.isPersistDeliveryCountBeforeDelivery());
        configuration.setJournalDatasync(file.isJournalDatasync());
        configuration.setJournalSyncTransactional(file.isJournalSyncTransactional());
        configuration.setJournalSyncNonTransactional(file.isJournalSyncNonTransactional());
        configuration.setSecurityEnabled(false);
        // queues, DLQs and their operations (retry, move, browse) in Hawtio's Artemis plugin
        configuration.setJMXManagementEnabled(true);
        log.info("Embedded broker uses the address settings of {} ({} matches)", RESOURCE,
                file.getAddressSettings().size());
    }

    /** Parses the broker.xml on the classpath as the standalone broker would (including ${...} substitution). */
    public static FileConfiguration read() {
        URL url = BrokerXmlCustomizer.class.getClassLoader().getResource(RESOURCE);
        if (url == null) {
            throw new IllegalStateException(RESOURCE + " is not on the classpath; the build copies it from artemis-config/");
        }
        try {
            FileConfiguration file = new FileConfiguration();
            FileDeploymentManager deployment = new FileDeploymentManager(url.toString());
            deployment.addDeployable(file);
            deployment.readConfiguration();
            return file;
        } catch (Exception e) {
            throw new IllegalStateException("cannot read " + url + ": " + e.getMessage(), e);
        }
    }
}
